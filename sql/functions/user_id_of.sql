-- The id of the user named `p_name` (case-insensitively, as names are unique); an error when there is none.
CREATE OR REPLACE FUNCTION laurel.user_id_of(p_name text) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    found_id bigint;
BEGIN
    SELECT id INTO found_id FROM laurel.users WHERE lower(name COLLATE "und-x-icu") = lower(btrim(p_name) COLLATE "und-x-icu");
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'no user named "%"', p_name USING ERRCODE = 'no_data_found';
    END IF;
    RETURN found_id;
END $$;
