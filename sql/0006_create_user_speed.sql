-- laurel.create_user checked the zone against pg_timezone_names, which reads the whole time zone database on
-- every call (about 80 ms). Now a zone is accepted when it looks like an IANA name (Area/Location, or UTC/GMT)
-- and PostgreSQL can convert a time into it.
CREATE FUNCTION laurel.is_time_zone(p_zone text) RETURNS boolean
LANGUAGE plpgsql STABLE AS $$
BEGIN
    IF p_zone IS NULL OR NOT (p_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)+$' OR p_zone IN ('UTC', 'GMT')) THEN
        RETURN false;
    END IF;
    PERFORM now() AT TIME ZONE p_zone;
    RETURN true;
EXCEPTION WHEN invalid_parameter_value THEN
    RETURN false;
END $$;

CREATE OR REPLACE FUNCTION laurel.create_user(name text, time_zone text DEFAULT 'UTC')
RETURNS TABLE (user_id bigint, token text)
LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
    local_day date;
BEGIN
    IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 64 OR name ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a user name is 1 to 64 characters without control characters' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT laurel.is_time_zone(create_user.time_zone) THEN
        RAISE EXCEPTION 'unknown time zone "%"', time_zone USING ERRCODE = 'invalid_parameter_value';
    END IF;
    local_day := (now() AT TIME ZONE create_user.time_zone)::date;
    INSERT INTO laurel.users (name) VALUES (btrim(create_user.name)) RETURNING id INTO new_id;
    INSERT INTO laurel.settings (user_id, effective_day, time_zone) VALUES (new_id, local_day, create_user.time_zone);
    INSERT INTO laurel.progress (user_id) VALUES (new_id);
    user_id := new_id;
    token := laurel.new_token(new_id);
    RETURN NEXT;
END $$;
