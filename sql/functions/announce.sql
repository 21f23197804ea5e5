-- Tells every server instance, on the channel `laurel_events` (delivered on commit), that something happened to a
-- user that concerns the user's connections: `tokens_revoked` or `user_deleted`.
CREATE OR REPLACE FUNCTION laurel.announce(p_event text, p_user bigint) RETURNS void
LANGUAGE sql AS $$
    SELECT pg_notify('laurel_events', json_build_object('event', p_event, 'user_id', p_user)::text);
$$;
