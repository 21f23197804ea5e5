-- TRIAL.START: premium for 14 days, once per user ever. Returns the seq of the SUBSCRIPTION push, or NULL when the
-- user's trial was used before (and then nothing changes).
CREATE OR REPLACE FUNCTION laurel.start_trial(p_user bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE laurel.users SET trial_used = true WHERE id = p_user AND NOT trial_used;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at)
    VALUES (p_user, 'trial', now(), now() + interval '14 days');
    RETURN laurel.store_subscription_push(p_user);
END $$;
