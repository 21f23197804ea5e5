-- What a user's friends see of each of `p_users` (FRIENDS, the FRIEND push), as the user's last write stored it:
-- name, level, XP, and the daily streak with what tells whether it still holds today (the last active day, the last
-- day it holds through, and the settings in force now). Users that do not exist are left out.
CREATE OR REPLACE FUNCTION laurel.friend_figures(p_users bigint[])
RETURNS TABLE (user_id bigint, name text, level integer, xp bigint, current_streak integer, last_active_day text,
               streak_holds_through text, time_zone text, rest_day smallint, vacation boolean)
LANGUAGE sql STABLE AS $$
    SELECT u.id, u.name, g.level, g.xp, g.current_streak, to_char(g.last_active_day, 'YYYY-MM-DD'),
           to_char(g.streak_holds_through, 'YYYY-MM-DD'), s.time_zone, s.rest_day, s.vacation
      FROM unnest(p_users) AS wanted(id)
      JOIN laurel.users u ON u.id = wanted.id
      JOIN laurel.progress g ON g.user_id = u.id
     CROSS JOIN LATERAL (SELECT s.time_zone, s.rest_day, s.vacation FROM laurel.settings s
                          WHERE s.user_id = u.id ORDER BY s.id DESC LIMIT 1) s;
$$;
