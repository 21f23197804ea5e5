-- Ends the friendship of `p_user` and `p_friend` on both sides; false when they were not friends.
CREATE OR REPLACE FUNCTION laurel.remove_friend(p_user bigint, p_friend bigint) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM laurel.friendships
     WHERE (user_id = p_user AND friend_id = p_friend) OR (user_id = p_friend AND friend_id = p_user);
    RETURN FOUND;
END $$;
