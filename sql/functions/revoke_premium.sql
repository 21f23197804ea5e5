-- Admin API: ends every running period of the user (grants and a running trial); the user hears of it when there
-- was one.
CREATE OR REPLACE FUNCTION laurel.revoke_premium(name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    UPDATE laurel.subscriptions SET revoked_at = now()
     WHERE user_id = target AND revoked_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now());
    IF FOUND THEN
        PERFORM laurel.store_subscription_push(target);
    END IF;
END $$;
