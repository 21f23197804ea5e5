-- The rarity of each achievement of the running catalog (rules.md, "Rarity"): of the users active in the last 30
-- days (a live log or a lesson completion in them), the share who have unlocked it, 0 to 1 with three decimals; 0
-- when nobody was active. The server reads it every few minutes, never per request.
CREATE OR REPLACE FUNCTION laurel.achievement_rarity()
RETURNS TABLE (achievement_id text, rarity numeric)
LANGUAGE sql STABLE AS $$
    WITH active AS (
        SELECT l.user_id FROM laurel.logs l WHERE l.deleted_at IS NULL AND l.at > now() - interval '30 days'
        UNION
        SELECT c.user_id FROM laurel.lesson_completions c WHERE c.at > now() - interval '30 days'
    ), total AS (
        SELECT count(*) AS users FROM active
    )
    SELECT a.id, CASE WHEN total.users = 0 THEN 0
                      ELSE round(count(u.user_id)::numeric / total.users, 3) END
      FROM laurel.achievements a
     CROSS JOIN total
      LEFT JOIN laurel.unlocks u ON u.achievement_id = a.id AND u.user_id IN (SELECT user_id FROM active)
     GROUP BY a.id, total.users
$$;
