-- The server instances that hear the store's events, each registered by its listening connection
-- (laurel.register_instance) and removed when it stops (laurel.unregister_instance) or, after a crash, by the next
-- registration, which finds the listening backend gone. laurel.commit_changes announces a batch of users' writes
-- only where another instance is registered: an instance alone sent a notification with every batch that nobody
-- read (its own listener dropped it), and every notifying commit takes PostgreSQL's one lock on the notification
-- queue until it ends.
--
--   id                   the instance's name for itself, also its pool connections' setting `laurel.instance`
--   listener_pid, listener_started_at
--                        the listening backend (`pg_stat_activity.pid`, `backend_start`), to tell a live instance
--                        from one that crashed
CREATE TABLE laurel.instances (
    id text PRIMARY KEY,
    listener_pid integer NOT NULL,
    listener_started_at timestamptz NOT NULL,
    registered_at timestamptz NOT NULL DEFAULT now()
);
