-- Whether `p_zone` looks like an IANA zone name (Area/Location, or UTC/GMT) that PostgreSQL can convert a time
-- into. (pg_timezone_names reads the whole zone database on every call, about 80 ms.)
CREATE OR REPLACE FUNCTION laurel.is_time_zone(p_zone text) RETURNS boolean
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
