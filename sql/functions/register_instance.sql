-- Registers the calling connection's server instance as one that hears the store's events, from its listening
-- connection, after its LISTEN and before it reads what it may have missed. From this function's commit on, every
-- other instance's commits of users' writes are announced (laurel.commit_changes); a commit that found no other
-- instance and so announces nothing ends before this one is granted its lock (each such commit holds the same lock,
-- shared, from its check to its end), so it is stored before the caller reads anything. Registrations of instances
-- whose listening backend is gone (a crash) are removed on the way.
CREATE OR REPLACE FUNCTION laurel.register_instance(instance text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- The registry's lock (7416 and 1 stand for laurel.instances), tried between commits rather than waited for in
    -- the lock's queue: an exclusive request waiting there holds up every commit that asks after it, and a commit
    -- that asks while it holds a user's row (PostgresStore.withUserLocked) would close a cycle with a batch that holds
    -- the lock and waits for that row, which PostgreSQL undoes only after its deadlock_timeout. A commit holds the
    -- lock for milliseconds; after ten seconds of trying it is waited for (taken again when held, it is counted twice).
    FOR attempt IN 1 .. 5000 LOOP
        EXIT WHEN pg_try_advisory_xact_lock(7416, 1);
        PERFORM pg_sleep(0.002);
    END LOOP;
    PERFORM pg_advisory_xact_lock(7416, 1);
    DELETE FROM laurel.instances i
     WHERE i.id = instance
        -- (A backend of another role shows no backend_start: its pid alone keeps the row then. A row kept in doubt
        -- costs announcements, never a missed one.)
        OR NOT EXISTS (SELECT FROM pg_stat_activity a
                        WHERE a.pid = i.listener_pid AND (a.backend_start IS NULL OR a.backend_start = i.listener_started_at));
    INSERT INTO laurel.instances (id, listener_pid, listener_started_at)
    SELECT instance, a.pid, a.backend_start FROM pg_stat_activity a WHERE a.pid = pg_backend_pid();
END $$;
