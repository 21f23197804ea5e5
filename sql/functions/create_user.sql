-- Admin API: a new user with its first settings (the zone, in force from today there) and a token, shown once. The
-- name is claimed first (laurel.user_names): a name taken in any case is a unique violation.
CREATE OR REPLACE FUNCTION laurel.create_user(name text, time_zone text DEFAULT 'UTC')
RETURNS TABLE (user_id bigint, token text)
LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
BEGIN
    IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 64 OR name ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a user name is 1 to 64 characters without control characters' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT laurel.is_time_zone(create_user.time_zone) THEN
        RAISE EXCEPTION 'unknown time zone "%"', time_zone USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.user_names (name_key) VALUES (lower(btrim(create_user.name) COLLATE "und-x-icu"));
    INSERT INTO laurel.users (name) VALUES (btrim(create_user.name)) RETURNING id INTO new_id;
    INSERT INTO laurel.settings (user_id, effective_day, time_zone)
    VALUES (new_id, (now() AT TIME ZONE create_user.time_zone)::date, create_user.time_zone);
    INSERT INTO laurel.progress (user_id) VALUES (new_id);
    user_id := new_id;
    token := laurel.new_token(new_id);
    RETURN NEXT;
END $$;
