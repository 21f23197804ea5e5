-- Admin API (and ACCOUNT.DELETE): removes the user and everything stored about the user; every instance closes
-- the user's connections. The progress row goes first: a write of the user waiting for its lock then finds no
-- row, and stores nothing.
CREATE OR REPLACE FUNCTION laurel.delete_user(name text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM laurel.delete_user_by_id(laurel.user_id_of(name));
END $$;
