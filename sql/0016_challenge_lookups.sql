-- laurel.store_logs again, with plans that stay good whatever the statistics of laurel.challenges say. Its plans
-- are generic (made once per connection): made while the table was empty or nearly (a fresh database, or right
-- after many users were deleted and vacuumed), the completions update of 0014 scanned every stored challenge for
-- each batch and compared it with each LOG of the batch, which under load took a LOG commit from about a
-- millisecond to hundreds (throughput fell to a fifth, at random, depending on when the plan was made). Both
-- lookups of laurel.challenges now go by key: the check of a chosen period by a subquery per period, the
-- completions by an index condition on the batch's users that complete something.

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
        SELECT p.*, coalesce(cardinality(p.push_kinds), 0) AS push_count, coalesce(found.taken, false) AS taken,
               coalesce(chosen.taken, false) AS challenges_taken
          FROM jsonb_populate_recordset(NULL::laurel.log_commit, batch) WITH ORDINALITY AS p
          LEFT JOIN LATERAL (
              SELECT true AS taken FROM laurel.logs l WHERE l.user_id = p.user_id AND l.id = p.id LIMIT 1
          ) AS found ON true
          -- A period the LOG chose challenges for that has some stored already (chosen elsewhere meanwhile): the
          -- LOG was decided against challenges the user does not have, so it is stale.
          -- (A subquery per chosen period, looked up by the whole key, whatever the table's statistics say.)
          LEFT JOIN LATERAL (
              SELECT true AS taken
                FROM jsonb_to_recordset(p.challenges_chosen) AS x(period text, period_start date)
               WHERE (SELECT true FROM laurel.challenges c
                       WHERE c.user_id = p.user_id AND c.period = x.period AND c.period_start = x.period_start LIMIT 1)
               LIMIT 1
          ) AS chosen ON true
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
               log_run_seq = u.last_seq + parts.push_count,
               log_allowance = CASE WHEN parts.rate IS NULL THEN u.log_allowance
                                    ELSE laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, parts.rate, parts.burst) - 1 END,
               log_allowance_at = CASE WHEN parts.rate IS NULL THEN u.log_allowance_at ELSE now() END
          FROM parts
         WHERE u.id = parts.user_id AND u.state_version = parts.version AND NOT parts.taken AND NOT parts.challenges_taken
           AND (parts.rate IS NULL
                OR laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, parts.rate, parts.burst) >= 1)
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
    ), chosen AS (
        -- The challenges the LOG chose for periods that had none (a completed one carries its completed_us).
        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, activity_id, hour, completed_at)
        SELECT s.user_id, x.period, x.period_start, x.slot, x.kind, x.title, x.target, x.xp, x.activity_id, x.hour,
               'epoch'::timestamptz + x.completed_us * interval '1 microsecond'
          FROM stored s
         CROSS JOIN LATERAL jsonb_to_recordset(s.challenges_chosen) AS x(period text, period_start date, slot smallint, kind text,
                                                                          title text, target integer, xp integer, activity_id text,
                                                                          hour smallint, completed_us bigint)
    ), completions AS (
        -- The challenges the LOG completes: stored at the version they were decided against, so still open (a
        -- writer in between would have moved the version on); the condition keeps a completion permanent anyway.
        -- Only the rows of the batch's users that complete something are looked at (an index condition on an array
        -- computed once), so no plan can turn this into a pass over every stored challenge.
        UPDATE laurel.challenges c SET completed_at = 'epoch'::timestamptz + s.unlocked_us * interval '1 microsecond'
          FROM stored s
         CROSS JOIN LATERAL unnest(s.challenge_periods, s.challenge_starts, s.challenge_slots) AS done(period, period_start, slot)
         WHERE c.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.challenge_slots IS NOT NULL))
           AND c.user_id = s.user_id AND c.period = done.period AND c.period_start = done.period_start AND c.slot = done.slot
           AND c.completed_at IS NULL
    ), figures AS (
        INSERT INTO laurel.progress AS pr
               (user_id, xp, level, max_level, current_streak, longest_streak, shown_streak, streak_holds_through,
                state_version, updated_at)
        SELECT s.user_id, s.xp, s.level, s.max_level, s.current_streak, s.longest_streak, s.shown_streak::json,
               s.streak_holds_through, -1, now()
          FROM stored s
        ON CONFLICT (user_id) DO UPDATE SET xp = EXCLUDED.xp, level = EXCLUDED.level, max_level = EXCLUDED.max_level,
            current_streak = EXCLUDED.current_streak, longest_streak = EXCLUDED.longest_streak,
            shown_streak = EXCLUDED.shown_streak, streak_holds_through = EXCLUDED.streak_holds_through, updated_at = now()
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                WHEN p.challenges_taken THEN 'stale'
                WHEN known.id IS NOT NULL AND known.state_version = p.version AND p.rate IS NOT NULL
                     AND laurel.log_allowance_now(known.log_allowance, known.log_allowance_at, p.rate, p.burst) < 1
                     THEN 'rate_limited'
                WHEN known.id IS NOT NULL THEN 'stale'
                ELSE 'unknown_user' END,
           s.bumped_version,
           CASE WHEN s.push_count > 0 THEN laurel.announce_pushes(s.user_id, s.bumped_last_seq) ELSE s.bumped_last_seq END,
           logged.logged_seq,
           p.user_id
      FROM parts p
      LEFT JOIN stored s ON s.ordinality = p.ordinality
      LEFT JOIN logs logged ON logged.logged_user = s.user_id
      LEFT JOIN LATERAL (
          SELECT x.id, x.state_version, x.log_allowance, x.log_allowance_at
            FROM laurel.users x WHERE x.id = p.user_id AND s.user_id IS NULL LIMIT 1
      ) AS known ON true
     ORDER BY p.ordinality;
END $$;
