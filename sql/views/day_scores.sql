-- Every user's score on every board and local day that has one (rules.md, "Friends and leaderboards"): the rows of
-- earlier days, and the latest day's scores from the progress row (migration 0012). `board` is `xp`, `logs`,
-- `challenges` or `activity:ID`; `reached_at` is when the day's score last rose. A week's, month's or all-time score
-- is the sum of its days. Conditions on the user, day and board reach both parts' indexes.
CREATE VIEW laurel.day_scores AS
SELECT e.user_id, e.day, e.board, e.score, e.reached_at
  FROM laurel.earlier_day_scores e
UNION ALL
SELECT g.user_id, g.latest_score_day, x.key, (x.value ->> 0)::bigint,
       'epoch'::timestamptz + (x.value ->> 1)::bigint * interval '1 microsecond'
  FROM laurel.progress g
 CROSS JOIN LATERAL json_each(g.latest_scores::json) AS x
 WHERE g.latest_score_day IS NOT NULL;
