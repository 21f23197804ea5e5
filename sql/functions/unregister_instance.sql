-- Removes a server instance that stops hearing the store's events (laurel.register_instance): the others' commits
-- are no longer announced for it.
CREATE OR REPLACE FUNCTION laurel.unregister_instance(instance text) RETURNS void
LANGUAGE sql AS $$
    DELETE FROM laurel.instances WHERE id = instance;
$$;
