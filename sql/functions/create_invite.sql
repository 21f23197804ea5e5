-- Makes invite code `p_code` of user `p_user`, open from `p_now` until `p_expires_at`. Answers 'too_large' when the user
-- has `p_max_open` codes open at `p_now` already, 'taken' when the code exists (the caller draws another), else
-- 'created'. The user's progress row lock, which every writer of the user takes, makes instances take turns on one
-- user's count.
CREATE OR REPLACE FUNCTION laurel.create_invite(
    p_user bigint, p_code text, p_now timestamptz, p_expires_at timestamptz, p_max_open integer
) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM 1 FROM laurel.progress WHERE user_id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown user %', p_user USING ERRCODE = 'no_data_found';
    END IF;
    IF (SELECT count(*) FROM laurel.invites
         WHERE inviter_id = p_user AND accepted_by IS NULL AND expires_at > p_now) >= p_max_open THEN
        RETURN 'too_large';
    END IF;
    INSERT INTO laurel.invites (code, inviter_id, created_at, expires_at)
    VALUES (p_code, p_user, p_now, p_expires_at)
    ON CONFLICT (code) DO NOTHING;
    RETURN CASE WHEN FOUND THEN 'created' ELSE 'taken' END;
END $$;
