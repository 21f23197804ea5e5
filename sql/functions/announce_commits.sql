-- Tells every server instance (on commit) where users' stored state now stands after writes: `commits` holds
-- [user_id, version, last_seq] triples as JSON text (laurel.announced_commit), some with the write's fact seq and
-- announced change (and the pushes it stored: laurel.commit_part's `announce`).
-- Each notification names its transaction's time (`at_us`, microseconds since 1970): the time every push the
-- transaction stored was given (laurel.pushes.created_at defaults to it), so that an instance delivering announced
-- pushes holds the very rows a read would give it.
-- A session elsewhere holding an earlier version adds the change, or stops answering from memory, and pushes up to
-- last_seq reach the user's connections there. Notifications stay below the 8000-byte payload limit: the commits
-- go in as many as it takes, and a commit whose change alone is too long goes without its change (the sessions
-- elsewhere then read what it stored).
-- `event` names who wrote: 'written' for the commits of users' writes (laurel.commit_changes), decided by the sessions
-- of the instance whose connection sends it, which passes over its own (every other instance reads them as
-- 'committed'); 'committed' for the functions' commits (accept_invite, store_subscription_push), which every
-- instance follows, the sender's too.
DROP FUNCTION IF EXISTS laurel.announce_commits(json[]);
DROP FUNCTION IF EXISTS laurel.announce_commits(text[]);
CREATE OR REPLACE FUNCTION laurel.announce_commits(commits text[], event text DEFAULT 'committed') RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    whole text := '[' || array_to_string(commits, ',') || ']';
    element text;
    parsed json;
    chunk text := '';
    head text := '{"event":"' || event || '","at_us":' || (extract(epoch FROM now()) * 1000000)::bigint || ',"users":';
BEGIN
    IF coalesce(array_length(commits, 1), 0) = 0 THEN
        RETURN;
    END IF;
    -- Nearly always one notification (a batch of LOGs without changes is some 30 bytes a user).
    IF octet_length(whole) <= 7900 THEN
        PERFORM pg_notify('laurel_events', head || whole || '}');
        RETURN;
    END IF;
    FOREACH element IN ARRAY commits LOOP
        IF octet_length(element) > 7900 THEN
            parsed := element::json;
            element := json_build_array(parsed -> 0, parsed -> 1, parsed -> 2)::text;
        END IF;
        IF chunk <> '' AND octet_length(chunk) + octet_length(element) > 7900 THEN
            PERFORM pg_notify('laurel_events', head || '[' || chunk || ']}');
            chunk := '';
        END IF;
        chunk := CASE WHEN chunk = '' THEN element ELSE chunk || ',' || element END;
    END LOOP;
    PERFORM pg_notify('laurel_events', head || '[' || chunk || ']}');
END $$;
