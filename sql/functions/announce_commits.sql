-- Tells every server instance (on commit) where users' stored state now stands after writes: `commits` holds
-- [user_id, version, last_seq] triples. A session elsewhere holding an earlier version stops answering from memory,
-- and pushes up to last_seq reach the user's connections there. At most 200 users to a notification, well below
-- the 8000-byte payload limit.
CREATE OR REPLACE FUNCTION laurel.announce_commits(commits json[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    first integer := 1;
BEGIN
    WHILE first <= coalesce(array_length(commits, 1), 0) LOOP
        PERFORM pg_notify('laurel_events', json_build_object(
            'event', 'committed', 'users', array_to_json(commits[first:first + 199]))::text);
        first := first + 200;
    END LOOP;
END $$;
