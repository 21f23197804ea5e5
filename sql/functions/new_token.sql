-- A token: 'lt_' and 64 hex digits made of two random UUIDs (244 random bits). Only its SHA-256 digest is stored.
CREATE OR REPLACE FUNCTION laurel.new_token(p_user bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    token text := 'lt_' || encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'hex');
BEGIN
    INSERT INTO laurel.tokens (digest, user_id) VALUES (sha256(convert_to(token, 'UTF8')), p_user);
    RETURN token;
END $$;
