-- Removes user `p_user` and everything stored about the user, and closes the user's connections everywhere.
-- The progress row goes first: a write of the user in flight holds its lock, so this waits for it and then sees
-- what it stored; a write after this finds no row and stores nothing. The tables of facts and of what was decided
-- from them have no foreign key to laurel.users (sql/migrations/0001_baseline.sql says why) and are emptied here;
-- the user's listings, invite codes, friends' sides of friendships and name claim are rows of others or shared ones,
-- deleted here too; the rest goes with the user's row.
CREATE OR REPLACE FUNCTION laurel.delete_user_by_id(p_user bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM laurel.progress WHERE user_id = p_user;
    DELETE FROM laurel.logs WHERE user_id = p_user;
    DELETE FROM laurel.lesson_completions WHERE user_id = p_user;
    DELETE FROM laurel.reported_events WHERE user_id = p_user;
    DELETE FROM laurel.reminders WHERE user_id = p_user;
    DELETE FROM laurel.unlocks WHERE user_id = p_user;
    DELETE FROM laurel.pushes WHERE user_id = p_user;
    DELETE FROM laurel.challenges WHERE user_id = p_user;
    DELETE FROM laurel.listings WHERE author_id = p_user;
    -- The friends' sides, by their keys (a friendship is stored on both sides).
    DELETE FROM laurel.friendships
     WHERE (user_id, friend_id) IN (SELECT f.friend_id, f.user_id FROM laurel.friendships f WHERE f.user_id = p_user);
    DELETE FROM laurel.earlier_day_scores WHERE user_id = p_user;
    DELETE FROM laurel.leaderboard_opt_outs WHERE user_id = p_user;
    DELETE FROM laurel.week_ranks WHERE user_id = p_user;
    DELETE FROM laurel.invites WHERE inviter_id = p_user OR accepted_by = p_user;
    DELETE FROM laurel.user_names WHERE name_key = (SELECT lower(u.name COLLATE "und-x-icu") FROM laurel.users u WHERE u.id = p_user);
    DELETE FROM laurel.users WHERE id = p_user;
    PERFORM laurel.announce('user_deleted', p_user);
END $$;
