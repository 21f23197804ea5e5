-- Whether a fact of `kind` ('log', 'lesson', 'event' or 'reminder') with id `id` is stored for `user_id` already:
-- a fact's id is its idempotency key, so such a write is a duplicate.
--
-- laurel.store_changes looks LOGs' ids up in its own statement and asks this for the other kinds, which few writes
-- are: a look-up of each kind in that statement was made ready in every batch, whatever its parts (some 75,000
-- instructions of PostgreSQL's, 5 % of a batch of one LOG: scripts/bench-commit). PL/pgSQL, so that it is never
-- inlined into that statement, and each look-up by the table's key.
CREATE OR REPLACE FUNCTION laurel.fact_id_taken(kind text, user_id bigint, id text) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN CASE kind
        WHEN 'log' THEN EXISTS (SELECT FROM laurel.logs l WHERE l.user_id = fact_id_taken.user_id AND l.id = fact_id_taken.id)
        WHEN 'lesson' THEN EXISTS (
            SELECT FROM laurel.lesson_completions c WHERE c.user_id = fact_id_taken.user_id AND c.id = fact_id_taken.id)
        WHEN 'event' THEN EXISTS (
            SELECT FROM laurel.reported_events e WHERE e.user_id = fact_id_taken.user_id AND e.id = fact_id_taken.id)
        WHEN 'reminder' THEN EXISTS (
            SELECT FROM laurel.reminders r WHERE r.user_id = fact_id_taken.user_id AND r.id = fact_id_taken.id)
        ELSE false
    END;
END $$;
