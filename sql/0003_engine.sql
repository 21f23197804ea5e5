-- The achievement engine: the local hour of each log (for time-of-day achievements), lesson completions,
-- reported events, the catalog's achievements (for operators' statistics), and laurel.achievement_stats.

-- The local hour at logging time, like `day`: fixed when the log is made, never moved by a later zone change.
ALTER TABLE laurel.logs ADD COLUMN local_hour smallint CHECK (local_hour BETWEEN 0 AND 23);

-- Lesson completions. (user_id, id) is the request's idempotency key; a lesson completed twice is stored
-- twice but counts once (the engine counts distinct lessons).
CREATE TABLE laurel.lesson_completions (
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    id          text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    lesson_id   text        NOT NULL,
    category    text        NOT NULL,
    at          timestamptz NOT NULL,
    day         date        NOT NULL,
    requested_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    response    json,
    PRIMARY KEY (user_id, id)
);

-- Events a client reports (`share`, `invite`); they count for achievements but do not make a day active.
CREATE TABLE laurel.reported_events (
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    id          text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    name        text        NOT NULL,
    at          timestamptz NOT NULL,
    requested_at timestamptz,
    created_at  timestamptz NOT NULL DEFAULT now(),
    response    json,
    PRIMARY KEY (user_id, id)
);

-- The running catalog's achievements, refreshed by every server at start, so operators can name them in SQL.
CREATE TABLE laurel.achievements (
    id          text    PRIMARY KEY,
    name        text    NOT NULL,
    category    text    NOT NULL,
    tier        text    NOT NULL,
    target      integer NOT NULL,
    secret      boolean NOT NULL DEFAULT false,
    catalog     text    NOT NULL
);

-- One row an achievement: how many users unlocked it, and what share of active users (a live log in the last
-- 30 days) that is, in percent.
CREATE VIEW laurel.achievement_stats AS
WITH active AS (
    SELECT count(DISTINCT user_id) AS users FROM laurel.logs WHERE deleted_at IS NULL AND at > now() - interval '30 days'
)
SELECT a.id AS achievement_id,
       a.name,
       a.category,
       a.tier,
       count(u.user_id) AS unlocked_by,
       CASE WHEN active.users = 0 THEN 0
            ELSE round(100.0 * count(u.user_id) FILTER (WHERE EXISTS (
                     SELECT 1 FROM laurel.logs l WHERE l.user_id = u.user_id AND l.deleted_at IS NULL
                        AND l.at > now() - interval '30 days')) / active.users, 1) END AS share_of_active_users_percent
  FROM laurel.achievements a
  CROSS JOIN active
  LEFT JOIN laurel.unlocks u ON u.achievement_id = a.id
 GROUP BY a.id, a.name, a.category, a.tier, active.users;
