-- Admin API: another token for a user, shown once.
CREATE OR REPLACE FUNCTION laurel.issue_token(name text) RETURNS text
LANGUAGE sql AS $$
    SELECT laurel.new_token(laurel.user_id_of(name));
$$;
