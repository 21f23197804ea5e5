-- Admin API: revokes every token of a user; the user's open connections are closed. Returns how many were revoked.
CREATE OR REPLACE FUNCTION laurel.revoke_tokens(name text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
    revoked integer;
BEGIN
    UPDATE laurel.tokens SET revoked_at = now() WHERE user_id = target AND revoked_at IS NULL;
    GET DIAGNOSTICS revoked = ROW_COUNT;
    PERFORM laurel.announce('tokens_revoked', target);
    RETURN revoked;
END $$;
