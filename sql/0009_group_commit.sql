-- A LOG in one statement, many users' LOGs in one transaction.
--
-- users.state_version numbers the versions of everything a user's evaluation reads (facts, settings, activities,
-- templates, unlocks, figures). Every writer bumps it: the transactional path when it takes the user's lock, and
-- laurel.record_logs only when the version is still the one the writer evaluated against (optimistic concurrency:
-- a server instance that holds a user's state in memory writes without reading first, and learns that another
-- writer came in between from a 'stale' outcome, never by overwriting its work).
--
-- progress.state_version now means: the users.state_version that progress.state (the engine's running state)
-- reflects. The state is no longer written with every LOG, so it is often older than the user's version; a
-- reader adds the live logs stored after it (see logs_user_seq below), since every writer but a LOG stores it.
ALTER TABLE laurel.users ADD COLUMN state_version bigint NOT NULL DEFAULT 0;
UPDATE laurel.progress SET state_version = -1;
-- The streak as the user last saw it ({"current","longest","freezes","at_risk","last_active_day"}): a STREAK push
-- tells what changed since. Small and of fixed size, so it is written with every LOG, unlike the state.
ALTER TABLE laurel.progress ADD COLUMN shown_streak json;

-- A stored engine state names the newest log it includes (EngineState.lastLogSeq); a session bringing an older
-- state up to the user's version adds the live logs after it, found here.
CREATE INDEX logs_user_seq ON laurel.logs (user_id, seq) WHERE deleted_at IS NULL;

-- One evaluated LOG of one user, as laurel.record_logs takes it (from a JSON array, one object per LOG): the log
-- row with its answer (`response`, JSON text), the achievements it unlocked and when, the pushes it caused
-- (`push_kinds` and `push_data`, JSON text, stored with the user's next seqs in this order and announced with
-- NOTIFY), and the figures after it. `version` is the user's state version it was evaluated against.
CREATE TYPE laurel.log_commit AS (
    user_id         bigint,
    version         bigint,
    id              text,
    activity        text,
    amount          integer,
    at_us           bigint,
    day             date,
    note            text,
    requested_us    bigint,
    local_hour      smallint,
    response        text,
    unlocks         text[],
    unlocked_us     bigint,
    push_kinds      text[],
    push_data       text[],
    xp              bigint,
    level           integer,
    max_level       integer,
    current_streak  integer,
    longest_streak  integer,
    shown_streak    text
);

-- Tells every instance (on commit) the new state versions of users whose LOGs were stored (`versions` holds
-- [user_id, state_version] pairs), so that a session elsewhere holding an older version stops answering reads
-- from memory. In notifications of at most 200 users each, well below the 8000-byte payload limit.
CREATE FUNCTION laurel.announce_state_versions(versions json[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    first integer := 1;
BEGIN
    WHILE first <= coalesce(array_length(versions, 1), 0) LOOP
        PERFORM pg_notify('laurel_events', json_build_object(
            'event', 'state_versions', 'users', array_to_json(versions[first:first + 199]))::text);
        first := first + 200;
    END LOOP;
END $$;

-- Announces that the user has pushes up to `seq` (laurel_events, delivered on commit) and returns `seq`.
CREATE FUNCTION laurel.announce_pushes(user_id bigint, seq bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('laurel_events', json_build_object('event', 'pushes_stored', 'user_id', user_id, 'seq', seq)::text);
    RETURN seq;
END $$;

-- Stores evaluated LOGs, each of its own user (a JSON array of laurel.log_commit objects), set by set: one statement
-- for all logs, one for all figures, and so on, so that per-statement costs (preparing check constraints, foreign
-- key checks) are paid once per batch, not per LOG. One row per element, in order: 'committed' (with the user's new
-- state version, last push seq and the log's seq), or, with nothing written for it, 'stale' (the version moved
-- on), 'duplicate' (the log id is taken) or 'unknown_user'. Anything that raises (a unique violation on an unlock
-- a concurrent writer stored, a missing activity) fails the whole call; laurel.record_logs decides what that rolls
-- back. At most one LOG per user, ordered by user, so that calls lock users' rows in one order.
--
-- By index, always, whatever the statistics said when the plan was made (a plan cached while the tables were
-- small would otherwise scan them for good); and one plan per connection, not one per call.
CREATE FUNCTION laurel.store_logs(batch jsonb)
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
           SET state_version = u.state_version + 1, last_seq = u.last_seq + parts.push_count
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

-- Commits a batch of evaluated LOGs in one transaction: one round trip and one WAL flush for all. One row per
-- element of `batch`, in order: the outcome of laurel.store_logs, or 'failed' with `detail`, plus `committed_us`,
-- the transaction's time (the pushes' time).
--
-- Not isolated (the default), the batch is stored by one call of laurel.store_logs, and anything that raises fails
-- the whole statement. The caller then runs the batch again isolated: each LOG stored alone in a block of its own
-- (a subtransaction) that rolls back alone, a unique violation as 'stale' (a concurrent writer stored the same
-- unlock), anything else as 'failed'. Subtransactions cost, and more than 64 in one transaction slow every other
-- transaction's snapshots, so only a failed batch pays for them.
CREATE FUNCTION laurel.record_logs(batch jsonb, isolated boolean DEFAULT false)
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, log_seq bigint, committed_us bigint, detail text)
LANGUAGE plpgsql AS $$
DECLARE
    part jsonb;
    part_user bigint;
    -- [user_id, state_version] of each committed LOG, announced at the end.
    versions json[] := '{}';
BEGIN
    committed_us := (extract(epoch FROM now()) * 1000000)::bigint;
    detail := NULL;
    IF NOT isolated THEN
        FOR outcome, new_version, new_last_seq, log_seq, part_user IN SELECT * FROM laurel.store_logs(batch) LOOP
            IF outcome = 'committed' THEN
                versions := versions || json_build_array(part_user, new_version);
            END IF;
            RETURN NEXT;
        END LOOP;
    ELSE
        FOR part IN SELECT value FROM jsonb_array_elements(batch) LOOP
            detail := NULL;
            BEGIN
                SELECT s.outcome, s.new_version, s.new_last_seq, s.log_seq, s.part_user
                  INTO outcome, new_version, new_last_seq, log_seq, part_user
                  FROM laurel.store_logs(jsonb_build_array(part)) s;
            EXCEPTION
                WHEN unique_violation THEN
                    outcome := 'stale';
                    detail := SQLERRM;
                WHEN OTHERS THEN
                    outcome := 'failed';
                    detail := SQLSTATE || ': ' || SQLERRM;
            END;
            IF outcome = 'committed' THEN
                versions := versions || json_build_array(part_user, new_version);
            ELSE
                new_version := NULL;
                new_last_seq := NULL;
                log_seq := NULL;
            END IF;
            RETURN NEXT;
        END LOOP;
    END IF;
    PERFORM laurel.announce_state_versions(versions);
END $$;
