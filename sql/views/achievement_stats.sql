-- One row an achievement of the running catalog: how many users unlocked it, and what share of active users (a
-- live log in the last 30 days) that is, in percent.
CREATE VIEW laurel.achievement_stats AS
WITH active AS (
    SELECT count(DISTINCT user_id) AS users FROM laurel.logs WHERE deleted_at IS NULL AND at > now() - interval '30 days'
)
SELECT a.id AS achievement_id,
       a.name,
       a.category,
       a.tier,
       count(u.user_id) AS unlocked_by,
       CASE WHEN active.users = 0 THEN 0
            ELSE round(100.0 * count(u.user_id) FILTER (WHERE EXISTS (
                     SELECT 1 FROM laurel.logs l WHERE l.user_id = u.user_id AND l.deleted_at IS NULL
                        AND l.at > now() - interval '30 days')) / active.users, 1) END AS share_of_active_users_percent
  FROM laurel.achievements a
  CROSS JOIN active
  LEFT JOIN laurel.unlocks u ON u.achievement_id = a.id
 GROUP BY a.id, a.name, a.category, a.tier, active.users;
