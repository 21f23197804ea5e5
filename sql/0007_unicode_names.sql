-- Names are unique and found case-insensitively for every script, not only ASCII: lower() follows the
-- database's locale (with the C locale it leaves 'Ü' alone), so compare with ICU's root lowercasing, which is
-- also what the server uses for built-in names.
DROP INDEX laurel.activities_custom_name;
CREATE UNIQUE INDEX activities_custom_name ON laurel.activities (user_id, lower(name COLLATE "und-x-icu")) WHERE user_id IS NOT NULL;

DROP INDEX laurel.users_name_key;
CREATE UNIQUE INDEX users_name_key ON laurel.users (lower(name COLLATE "und-x-icu"));

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
