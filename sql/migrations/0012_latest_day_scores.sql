-- A user's board scores on their latest local day with any live on the progress row, which every write updates
-- anyway (LatestDayScores, LaurelStore): the writes of that day, nearly every LOG, then store their scores without a
-- row of their own, where three rows a LOG cost PostgreSQL a third more CPU (docs/leaderboards.md). Earlier days keep
-- one row per user, day and board, in the table renamed here; the view laurel.day_scores (sql/views) shows both as
-- one, so readers see what they saw before. No earlier-day row is ever of the latest day or after it.
ALTER TABLE laurel.day_scores RENAME TO earlier_day_scores;
ALTER INDEX laurel.day_scores_pkey RENAME TO earlier_day_scores_pkey;
ALTER INDEX laurel.day_scores_board_day RENAME TO earlier_day_scores_board_day;

-- `latest_scores`: {"BOARD": [score, reached_us], ...} as the server wrote it (json keeps the text; short, since every
-- LOG writes it into the row and the WAL).
ALTER TABLE laurel.progress ADD COLUMN latest_score_day date, ADD COLUMN latest_scores json;
-- A board key's first reading finds the users whose latest day lies in it. The column changes once a user-day, so
-- the other updates of the row stay heap-only.
CREATE INDEX progress_by_latest_score_day ON laurel.progress (latest_score_day) WHERE latest_score_day IS NOT NULL;

UPDATE laurel.progress g
   SET latest_score_day = latest.day,
       latest_scores = latest.scores
  FROM (SELECT d.user_id, d.day,
               json_object_agg(d.board, json_build_array(d.score, (extract(epoch FROM d.reached_at) * 1000000)::bigint)) AS scores
          FROM laurel.earlier_day_scores d
         WHERE d.day = (SELECT max(m.day) FROM laurel.earlier_day_scores m WHERE m.user_id = d.user_id)
         GROUP BY d.user_id, d.day) latest
 WHERE g.user_id = latest.user_id;
DELETE FROM laurel.earlier_day_scores d USING laurel.progress g
 WHERE g.user_id = d.user_id AND d.day >= g.latest_score_day;

-- Every write updates the user's row, now wider by the latest day's scores: room on each page keeps the updates
-- heap-only (no new index entries, no bloat).
ALTER TABLE laurel.progress SET (fillfactor = 70);
