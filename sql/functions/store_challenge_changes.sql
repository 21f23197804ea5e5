-- A batch's challenges chosen and completed, and its board scores of days before the latest, after
-- laurel.store_changes stored what every LOG writes, in the same transaction: few writes have any of these (a user's
-- first fact of a day or week chooses challenges, a few LOGs a day complete one, a backfill or a deletion moves an
-- earlier day's scores), so a batch without them runs no statement for them. One element per committed part that has
-- any, in batch order, as laurel.store_changes read them (laurel.commit_part names the fields): the user, the moment
-- of the decision, and the part's `scores`, `chosen` and `completed`.
--
-- The three are one statement, so a challenge chosen here is not among those a completion here can find: one chosen
-- complete comes with `completed` true instead.
DROP FUNCTION IF EXISTS laurel.store_challenge_changes(bigint[], bigint[], json[], json[], json[]);
CREATE OR REPLACE FUNCTION laurel.store_challenge_changes(users bigint[], decided bigint[], scores json[], chosen json[], completed json[])
RETURNS void
LANGUAGE plpgsql
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    WITH stored AS (
        SELECT s.user_id, s.scores, s.chosen, s.completed, 'epoch'::timestamptz + s.decided_us * interval '1 microsecond' AS decided_at
          FROM unnest(users, decided, scores, chosen, completed) AS s(user_id, decided_us, scores, chosen, completed)
    ), moved_scores AS (
        INSERT INTO laurel.earlier_day_scores AS k (user_id, day, board, score, reached_at)
        SELECT s.user_id, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
          FROM stored s CROSS JOIN LATERAL json_to_recordset(s.scores) AS x(day date, board text, delta bigint, reached_us bigint)
         WHERE s.scores IS NOT NULL
        ON CONFLICT (user_id, day, board) DO UPDATE
           SET score = k.score + EXCLUDED.score,
               reached_at = CASE WHEN EXCLUDED.score > 0 THEN EXCLUDED.reached_at ELSE k.reached_at END
    ), new_challenges AS (
        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, activity_id, hour, chosen_at, completed_at)
        SELECT s.user_id, x.period, x.period_start, x.slot, x.kind, x.title, x.target, x.xp, x.activity_id, x.hour, s.decided_at,
               CASE WHEN x.completed THEN s.decided_at END
          FROM stored s
         CROSS JOIN LATERAL json_to_recordset(s.chosen) AS x(period text, period_start date, slot smallint, kind text, title text,
                                                              target integer, xp integer, activity_id text, hour smallint, completed boolean)
         WHERE s.chosen IS NOT NULL
    )
    -- Decided at the version they are stored at, so still open; the condition keeps a completion permanent anyway.
    UPDATE laurel.challenges c SET completed_at = s.decided_at
      FROM stored s
     CROSS JOIN LATERAL json_to_recordset(s.completed) AS done(period text, period_start date, slot smallint)
     WHERE c.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.completed IS NOT NULL))
       AND c.user_id = s.user_id AND c.period = done.period AND c.period_start = done.period_start AND c.slot = done.slot
       AND c.completed_at IS NULL;
END $$;
