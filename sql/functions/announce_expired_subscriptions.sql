-- Announces the premium periods that have ended: each is marked once (rows another caller holds are skipped, so
-- concurrent callers on several instances never take the same one), and each user concerned gets a SUBSCRIPTION
-- push when the document now differs from the last one the user was sent. A period ending under another that keeps
-- the document as it was (a longer grant, a grant without end) tells nothing new and stores nothing. Returns the
-- number of pushes stored. Up to 1000 periods a call; the rest wait for the next call.
CREATE OR REPLACE FUNCTION laurel.announce_expired_subscriptions() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    concerned bigint[];
    ended_user bigint;
    stored integer := 0;
BEGIN
    WITH due AS (
        SELECT s.user_id, s.id FROM laurel.subscriptions s
         WHERE NOT s.announced_end AND s.revoked_at IS NULL AND s.ends_at IS NOT NULL AND s.ends_at <= now()
         ORDER BY s.ends_at, s.id
         LIMIT 1000
           FOR UPDATE SKIP LOCKED
    ), marked AS (
        UPDATE laurel.subscriptions s SET announced_end = true FROM due WHERE s.user_id = due.user_id AND s.id = due.id
        RETURNING s.user_id
    )
    SELECT array_agg(DISTINCT marked.user_id ORDER BY marked.user_id) INTO concerned FROM marked;

    -- Users in id order, so two callers that share users lock them in the same order.
    FOREACH ended_user IN ARRAY coalesce(concerned, '{}') LOOP
        PERFORM 1 FROM laurel.progress WHERE user_id = ended_user FOR UPDATE;
        -- A new statement, so it sees whatever pushes were committed while waiting for the lock.
        IF laurel.subscription_document(ended_user)::jsonb IS DISTINCT FROM (
               SELECT p.data::jsonb FROM laurel.pushes p
                WHERE p.user_id = ended_user AND p.kind = 'SUBSCRIPTION'
                ORDER BY p.seq DESC LIMIT 1) THEN
            IF laurel.store_subscription_push(ended_user) IS NOT NULL THEN
                stored := stored + 1;
            END IF;
        END IF;
    END LOOP;
    RETURN stored;
END $$;
