-- Board scores by local day (rules.md, "Friends and leaderboards"): one row per user, local day and board, moved by
-- the write path in the same statement as the facts that move them (laurel.store_changes adds the core's
-- ScoreChanges; nothing here computes a score). `board` is `xp`, `logs`, `challenges` or `activity:ID`. A week's,
-- month's or all-time score is the sum of its days. `reached_at` is when the day's score last rose. No index on the
-- score: an update of an existing row changes no indexed column (a HOT update); ranks are made when a board is read.
CREATE TABLE laurel.day_scores (
    user_id     bigint       NOT NULL,
    day         date         NOT NULL,
    board       text         NOT NULL,
    score       bigint       NOT NULL,
    reached_at  timestamptz  NOT NULL,
    PRIMARY KEY (user_id, day, board)
) WITH (fillfactor = 80);
CREATE INDEX day_scores_board_day ON laurel.day_scores (board, day);

-- Users who turned `leaderboards` off in SETTINGS: left out of global boards. Kept by laurel.store_changes with the
-- settings row, so a board filters by a small anti-join instead of every user's latest settings.
CREATE TABLE laurel.leaderboard_opt_outs (
    user_id  bigint  PRIMARY KEY
);
INSERT INTO laurel.leaderboard_opt_outs (user_id)
SELECT latest.user_id
  FROM (SELECT DISTINCT ON (s.user_id) s.user_id, s.leaderboards FROM laurel.settings s ORDER BY s.user_id, s.id DESC) latest
 WHERE NOT latest.leaderboards;

-- Accounts are deleted and invites looked up by either user: plain indexes (the open codes' partial index serves only
-- the count of a user's open codes).
CREATE INDEX invites_by_inviter ON laurel.invites (inviter_id);
CREATE INDEX invites_by_acceptor ON laurel.invites (accepted_by) WHERE accepted_by IS NOT NULL;
