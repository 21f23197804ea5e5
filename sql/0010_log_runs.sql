-- Which versions of a user only LOG commits made, so that a session elsewhere can catch up with them cheaply.
--
-- A user whose connections sit on two instances logs on both; each LOG commit on one instance moves the user's
-- version past what the session on the other holds. Loading everything again there costs a dozen statements,
-- yet a LOG commit changes only the logs, the unlocks, the figures and the pushes. laurel.store_logs now keeps the
-- current run of versions that only LOG commits made: from log_run_start to log_run_end, while no push other
-- than theirs was stored (log_run_start_seq is the last push seq when the run began, log_run_seq the one its newest
-- commit left). Every other writer moves state_version past log_run_end (the transactional path) or last_seq past log_run_seq (an operator's grant,
-- the end of a premium period), which ends the run without touching these columns. A session holding version v
-- and pushes up to seq s, with log_run_start <= v, log_run_start_seq <= s, log_run_end = state_version and
-- log_run_seq = last_seq, has seen everything but the run's LOG commits after v: it may add the logs stored after
-- its newest one and read the unlocks and figures again, in one statement, instead of loading everything.
ALTER TABLE laurel.users
    ADD COLUMN log_run_start bigint NOT NULL DEFAULT -1,
    ADD COLUMN log_run_end bigint NOT NULL DEFAULT -1,
    ADD COLUMN log_run_seq bigint NOT NULL DEFAULT -1,
    ADD COLUMN log_run_start_seq bigint NOT NULL DEFAULT -1;

-- laurel.store_logs of migration 0009, keeping the run.
CREATE OR REPLACE FUNCTION laurel.store_logs(batch jsonb)
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, log_seq bigint, part_user bigint)
LANGUAGE plpgsql
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    RETURN QUERY
    WITH parts AS (
        -- A log id seen here was stored by a writer that committed before; one stored later moved the version
        -- on, which the update below checks under the user's row lock. (A lateral lookup per part, so that
        -- no plan can turn it into a pass over all logs.)
        SELECT p.*, coalesce(cardinality(p.push_kinds), 0) AS push_count, coalesce(found.taken, false) AS taken
          FROM jsonb_populate_recordset(NULL::laurel.log_commit, batch) WITH ORDINALITY AS p
          LEFT JOIN LATERAL (
              SELECT true AS taken FROM laurel.logs l WHERE l.user_id = p.user_id AND l.id = p.id LIMIT 1
          ) AS found ON true
    ), bumped AS (
        UPDATE laurel.users u
           SET state_version = u.state_version + 1, last_seq = u.last_seq + parts.push_count,
               -- The run goes on when the version and the last push seq are still the ones the previous LOG
               -- commit left; anything else in between starts a new run here.
               log_run_start = CASE WHEN u.log_run_end = u.state_version AND u.log_run_seq = u.last_seq
                                    THEN u.log_run_start ELSE u.state_version END,
               log_run_start_seq = CASE WHEN u.log_run_end = u.state_version AND u.log_run_seq = u.last_seq
                                        THEN u.log_run_start_seq ELSE u.last_seq END,
               log_run_end = u.state_version + 1,
               log_run_seq = u.last_seq + parts.push_count
          FROM parts
         WHERE u.id = parts.user_id AND u.state_version = parts.version AND NOT parts.taken
        RETURNING u.id AS bumped_user, u.state_version AS bumped_version, u.last_seq AS bumped_last_seq
    ), stored AS (
        SELECT parts.*, bumped.bumped_version, bumped.bumped_last_seq
          FROM parts JOIN bumped ON bumped.bumped_user = parts.user_id
    ), logs AS (
        INSERT INTO laurel.logs (user_id, id, activity_id, amount, at, day, note, requested_at, response, local_hour)
        SELECT s.user_id, s.id, s.activity, s.amount, 'epoch'::timestamptz + s.at_us * interval '1 microsecond', s.day,
               s.note, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response::json, s.local_hour
          FROM stored s
        RETURNING user_id AS logged_user, seq AS logged_seq
    ), unlocks AS (
        INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at)
        SELECT s.user_id, unlocked.id, 'epoch'::timestamptz + s.unlocked_us * interval '1 microsecond'
          FROM stored s CROSS JOIN LATERAL unnest(s.unlocks) AS unlocked(id)
    ), pushes AS (
        INSERT INTO laurel.pushes (user_id, seq, kind, data)
        SELECT s.user_id, s.bumped_last_seq - s.push_count + pushed.n, pushed.kind, pushed.data::json
          FROM stored s CROSS JOIN LATERAL unnest(s.push_kinds, s.push_data) WITH ORDINALITY AS pushed(kind, data, n)
    ), figures AS (
        INSERT INTO laurel.progress AS pr
               (user_id, xp, level, max_level, current_streak, longest_streak, shown_streak, state_version, updated_at)
        SELECT s.user_id, s.xp, s.level, s.max_level, s.current_streak, s.longest_streak, s.shown_streak::json, -1, now()
          FROM stored s
        ON CONFLICT (user_id) DO UPDATE SET xp = EXCLUDED.xp, level = EXCLUDED.level, max_level = EXCLUDED.max_level,
            current_streak = EXCLUDED.current_streak, longest_streak = EXCLUDED.longest_streak,
            shown_streak = EXCLUDED.shown_streak, updated_at = now()
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                WHEN known.id IS NOT NULL THEN 'stale'
                ELSE 'unknown_user' END,
           s.bumped_version,
           CASE WHEN s.push_count > 0 THEN laurel.announce_pushes(s.user_id, s.bumped_last_seq) ELSE s.bumped_last_seq END,
           logged.logged_seq,
           p.user_id
      FROM parts p
      LEFT JOIN stored s ON s.ordinality = p.ordinality
      LEFT JOIN logs logged ON logged.logged_user = s.user_id
      LEFT JOIN LATERAL (SELECT x.id FROM laurel.users x WHERE x.id = p.user_id AND s.user_id IS NULL LIMIT 1) AS known ON true
     ORDER BY p.ordinality;
END $$;
