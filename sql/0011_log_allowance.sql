-- The per-user log rate (rules.md "Limits and validation": 50 logs a second, bursts up to 1000, configurable)
-- kept with the user's row, so that it holds across instances and reconnects: a session's own allowance is
-- forgotten when the user's last connection here closes, and each instance had one of its own.
--
-- users.log_allowance is the number of new facts (logs, lesson completions, events) the user could store at once
-- when it was last spent, at log_allowance_at; it refills at the rate up to the burst (NULL: a full burst). Every
-- writer of a new fact spends one in the statement or transaction that stores it: laurel.store_logs (the LOG
-- commit, no extra round trip) with the rate and burst the instance sends in each part, and the transactional path
-- with laurel.spend_log_allowance. A part over the rate stores nothing and comes back 'rate_limited'.
ALTER TABLE laurel.users
    ADD COLUMN log_allowance double precision,
    ADD COLUMN log_allowance_at timestamptz;

ALTER TYPE laurel.log_commit ADD ATTRIBUTE rate double precision, ADD ATTRIBUTE burst double precision;

-- What the allowance is now, refilled since it was last spent.
CREATE FUNCTION laurel.log_allowance_now(
    allowance double precision, spent_at timestamptz, rate double precision, burst double precision
) RETURNS double precision
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN allowance IS NULL OR spent_at IS NULL THEN burst
                ELSE least(burst, allowance + greatest(0, extract(epoch FROM now() - spent_at)) * rate) END
$$;

-- Spends one new fact from the user's allowance; false (nothing spent) when the user is over the rate. For the
-- transactional path, which holds the user's row lock already.
CREATE FUNCTION laurel.spend_log_allowance(p_user bigint, rate double precision, burst double precision) RETURNS boolean
LANGUAGE sql AS $$
    WITH spent AS (
        UPDATE laurel.users u
           SET log_allowance = laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, rate, burst) - 1,
               log_allowance_at = now()
         WHERE u.id = p_user AND laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, rate, burst) >= 1
        RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM spent)
$$;

-- The limits the operator configured, for what SQL answers by itself (the template limit of a SUBSCRIPTION
-- document, in pushes an operator's function stores too). laurel serve writes them at start; instances sharing a
-- database are meant to run with the same limits.
CREATE TABLE laurel.server_limits (
    only_row        boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    template_limit  integer NOT NULL CHECK (template_limit >= 0)
);
INSERT INTO laurel.server_limits (template_limit) VALUES (100);

-- The template limit of a premium user: the one of the server this session belongs to (each of its database
-- connections sets laurel.template_limit), else the one laurel serve recorded (an operator's psql session).
CREATE FUNCTION laurel.template_limit() RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('laurel.template_limit', true), '')::integer,
                    (SELECT l.template_limit FROM laurel.server_limits l), 100)
$$;

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
               log_run_seq = u.last_seq + parts.push_count,
               log_allowance = CASE WHEN parts.rate IS NULL THEN u.log_allowance
                                    ELSE laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, parts.rate, parts.burst) - 1 END,
               log_allowance_at = CASE WHEN parts.rate IS NULL THEN u.log_allowance_at ELSE now() END
          FROM parts
         WHERE u.id = parts.user_id AND u.state_version = parts.version AND NOT parts.taken
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

-- laurel.subscription_document of migration 0004, with the configured template limit.
CREATE OR REPLACE FUNCTION laurel.subscription_document(p_user bigint) RETURNS json
LANGUAGE sql STABLE AS $$
    WITH running AS (
        SELECT s.kind, s.ends_at FROM laurel.subscriptions s
         WHERE s.user_id = p_user AND s.revoked_at IS NULL AND s.starts_at <= now()
           AND (s.ends_at IS NULL OR s.ends_at > now())
    ), state AS (
        SELECT sub.tier, sub.status, NOT u.trial_used AS trial_available,
               (SELECT max(r.ends_at) FROM running r WHERE r.kind = 'trial') AS trial_ends_at,
               CASE WHEN EXISTS (SELECT 1 FROM running r WHERE r.kind = 'grant' AND r.ends_at IS NULL) THEN NULL
                    ELSE (SELECT max(r.ends_at) FROM running r WHERE r.kind = 'grant') END AS grant_ends_at
          FROM laurel.users u CROSS JOIN LATERAL laurel.subscription_at(u.id) sub
         WHERE u.id = p_user
    )
    -- Absent optional fields are NULL here and stripped; no other field is ever NULL.
    SELECT json_strip_nulls(json_build_object(
               'tier', state.tier,
               'status', state.status,
               'trial_available', state.trial_available,
               'trial_ends_at', CASE WHEN state.status = 'trial' THEN laurel.rfc3339(state.trial_ends_at) END,
               'expires_at', CASE WHEN state.status = 'active' THEN laurel.rfc3339(state.grant_ends_at) END,
               'entitlements', json_build_object(
                   'templates', state.tier = 'premium',
                   'template_limit', CASE WHEN state.tier = 'premium'
                                           THEN laurel.template_limit() ELSE 0 END)))
      FROM state;
$$;
