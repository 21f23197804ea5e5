-- LOG commits announce their stored pushes many users to a notification, as they announce state versions. Under
-- load every commit that stored a push (an unlock, a level, a streak, a completed challenge) sent a notification of
-- its own, and those notifications were most of the open loop's latency tail (measured: with laurel.announce_pushes
-- made a no-op the open loop's p99 fell from 55-63 ms to 21-27 ms). laurel.store_logs still calls
-- laurel.announce_pushes for each user that stored pushes; it now only notes the user and seq for the transaction
-- (a transaction-local setting, undone with a part that rolls back), and laurel.record_logs, the only caller of
-- laurel.store_logs, announces them all at the end: {"event": "pushes_stored", "users": [[user_id, seq], ...]}, 200
-- users to a notification. Pushes stored by other writers (a transaction, an operator's grant) are announced one
-- user to a notification as before; the server reads both forms.

CREATE OR REPLACE FUNCTION laurel.announce_pushes(user_id bigint, seq bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM set_config('laurel.pushes_to_announce',
                       coalesce(current_setting('laurel.pushes_to_announce', true), '') || user_id || ':' || seq || ',', true);
    RETURN seq;
END $$;

-- Announces the pushes noted by laurel.announce_pushes in this transaction, and forgets them.
CREATE FUNCTION laurel.announce_stored_pushes() RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    noted text := coalesce(current_setting('laurel.pushes_to_announce', true), '');
    pairs json[];
    first integer := 1;
BEGIN
    IF noted = '' THEN
        RETURN;
    END IF;
    PERFORM set_config('laurel.pushes_to_announce', '', true);
    SELECT array_agg(json_build_array(split_part(item, ':', 1)::bigint, split_part(item, ':', 2)::bigint))
      INTO pairs
      FROM unnest(string_to_array(rtrim(noted, ','), ',')) AS item;
    WHILE first <= coalesce(array_length(pairs, 1), 0) LOOP
        PERFORM pg_notify('laurel_events', json_build_object(
            'event', 'pushes_stored', 'users', array_to_json(pairs[first:first + 199]))::text);
        first := first + 200;
    END LOOP;
END $$;

CREATE OR REPLACE FUNCTION laurel.record_logs(batch jsonb, isolated boolean DEFAULT false)
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
    PERFORM laurel.announce_stored_pushes();
END $$;
