-- Removes user `p_user` and everything stored about the user, and closes the user's connections everywhere.
CREATE OR REPLACE FUNCTION laurel.delete_user_by_id(p_user bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM laurel.progress WHERE user_id = p_user;
    DELETE FROM laurel.users WHERE id = p_user;
    PERFORM laurel.announce('user_deleted', p_user);
END $$;
