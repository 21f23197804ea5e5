-- Rankings of ended weeks' global boards, for comparative achievements (rules.md, "Comparative achievements"). Once a
-- week has ended everywhere (Monday 12:00 UTC after it), one instance ranks its global board (LEADERBOARD's order)
-- and stores the ranks a `top_percent` rule of the catalog can reach (the core's TopPercentRule.ranksToKeep), again
-- now and then while backfills can still change the week. An evaluation reads only the user's own row.
CREATE TABLE laurel.week_rankings (
    board      text         NOT NULL,
    week       text         NOT NULL,
    total      integer      NOT NULL,
    ranked_at  timestamptz  NOT NULL,
    PRIMARY KEY (board, week)
);

CREATE TABLE laurel.week_ranks (
    user_id  bigint   NOT NULL,
    board    text     NOT NULL,
    week     text     NOT NULL,
    rank     integer  NOT NULL,
    PRIMARY KEY (user_id, board, week)
);
-- A ranking replaces its week's ranks at once.
CREATE INDEX week_ranks_by_week ON laurel.week_ranks (board, week);
