-- Stores a SUBSCRIPTION push with the user's document now, as a write of the user: the version moves on (sessions
-- load the subscription again) and every instance hears of it on commit. Takes the user's progress row lock, like
-- every writer of the user. Returns the push's seq, NULL for an unknown user.
CREATE OR REPLACE FUNCTION laurel.store_subscription_push(p_user bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    next_seq bigint;
    next_version bigint;
BEGIN
    UPDATE laurel.progress
       SET last_seq = last_seq + 1, version = version + 1, reload_version = version + 1, updated_at = now()
     WHERE user_id = p_user
    RETURNING last_seq, version INTO next_seq, next_version;
    IF next_seq IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.pushes (user_id, seq, kind, data)
    VALUES (p_user, next_seq, 'SUBSCRIPTION', laurel.subscription_document(p_user));
    PERFORM laurel.announce_commits(ARRAY[laurel.announced_commit(p_user, next_version, next_seq, NULL, NULL)]);
    RETURN next_seq;
END $$;
