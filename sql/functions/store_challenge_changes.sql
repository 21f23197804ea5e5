-- A batch's challenges chosen and completed, and its board scores of days before the latest, after
-- laurel.store_changes stored what every LOG writes, in the same transaction: few writes have any of these (a user's
-- first fact of a day or week chooses challenges, a few LOGs a day complete one, a backfill or a deletion moves an
-- earlier day's scores), so a batch without them runs no statement for them. One element per committed part that has
-- any, in batch order, as laurel.store_changes read them (laurel.commit_part names the fields): the user, the moment
-- of the decision, and the part's `scores` and `completed`; and the places in `batch` of the committed parts that
-- chose challenges, whose `chosen_*` arrays are read from the batch as they came, without parsing anything.
--
-- One statement for each of the three, run only when some part has any of it: a statement's start costs for every
-- step of its plan, rows or none, and as one statement a backfill (scores alone) paid for all three (this function's
-- call 0.18-0.21 ms a batch of one backfilled LOG, 0.14 as three; pg_stat_statements). Completions are stored before
-- the choices, so a challenge chosen here is not among those a completion here can find (one chosen complete comes
-- with `completed` true instead). An element '[]' of `scores` or `completed`, and a place in `chosen` that no part of
-- `batch` has, store nothing but still run their statements: PostgresStore's warm-up plans all three that way.
DROP FUNCTION IF EXISTS laurel.store_challenge_changes(bigint[], bigint[], json[], json[], json[]);
CREATE OR REPLACE FUNCTION laurel.store_challenge_changes(
    users bigint[], decided bigint[], scores json[], completed json[], batch laurel.commit_part[], chosen integer[]
)
RETURNS void
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_nestloop = off
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    any_scores boolean := false;
    any_chosen boolean := false;
    any_completed boolean := false;
BEGIN
    FOR part IN 1 .. coalesce(cardinality(users), 0) LOOP
        any_scores := any_scores OR scores[part] IS NOT NULL;
        any_completed := any_completed OR completed[part] IS NOT NULL;
    END LOOP;
    any_chosen := cardinality(chosen) > 0;
    IF any_scores THEN
        INSERT INTO laurel.earlier_day_scores AS k (user_id, day, board, score, reached_at)
        SELECT s.user_id, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
          FROM unnest(users, scores) AS s(user_id, day_scores)
         CROSS JOIN LATERAL json_to_recordset(s.day_scores) AS x(day date, board text, delta bigint, reached_us bigint)
         WHERE s.day_scores IS NOT NULL
        ON CONFLICT (user_id, day, board) DO UPDATE
           SET score = k.score + EXCLUDED.score,
               reached_at = CASE WHEN EXCLUDED.score > 0 THEN EXCLUDED.reached_at ELSE k.reached_at END;
    END IF;
    IF any_completed THEN
        -- Decided at the version they are stored at, so still open; the condition keeps a completion permanent anyway.
        UPDATE laurel.challenges c SET completed_at = 'epoch'::timestamptz + s.decided_us * interval '1 microsecond'
          FROM unnest(users, decided, completed) AS s(user_id, decided_us, done_list)
         CROSS JOIN LATERAL json_to_recordset(s.done_list) AS done(period text, period_start date, slot smallint)
         WHERE c.user_id = ANY (ARRAY(SELECT t.user_id FROM unnest(users, completed) AS t(user_id, done_list) WHERE t.done_list IS NOT NULL))
           AND s.done_list IS NOT NULL
           AND c.user_id = s.user_id AND c.period = done.period AND c.period_start = done.period_start AND c.slot = done.slot
           AND c.completed_at IS NULL;
    END IF;
    IF any_chosen THEN
        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, activity_id, hour, chosen_at, completed_at)
        SELECT p.user_id, x.period, x.period_start, x.slot, x.kind, x.title, x.target, x.xp, x.activity_id, x.hour,
               'epoch'::timestamptz + p.decided_us * interval '1 microsecond',
               CASE WHEN x.completed THEN 'epoch'::timestamptz + p.decided_us * interval '1 microsecond' END
          FROM unnest(batch) AS p
          JOIN unnest(chosen) AS c(n) ON c.n = p.n
         CROSS JOIN LATERAL unnest(p.chosen_period, p.chosen_start, p.chosen_slot, p.chosen_kind, p.chosen_title, p.chosen_target,
                                   p.chosen_xp, p.chosen_activity, p.chosen_hour, p.chosen_completed)
                            AS x(period, period_start, slot, kind, title, target, xp, activity_id, hour, completed);
    END IF;
END $$;
