-- Admin API: premium for `period` from now, or without end when period is NULL; the user hears of it at once.
CREATE OR REPLACE FUNCTION laurel.grant_premium(name text, period interval DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    IF period IS NOT NULL AND period <= interval '0' THEN
        RAISE EXCEPTION 'the period must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at) VALUES (target, 'grant', now(), now() + period);
    PERFORM laurel.store_subscription_push(target);
END $$;
