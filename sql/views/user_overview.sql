-- One row a user, for operators: name, subscription, the figures the server stored with the user's last write, and
-- when the user was last seen. The streak is the one of the user's last write unless the day through which it held
-- has passed in the user's zone (the server stores that day; nothing here counts a streak). SQL reads the figures,
-- it does not recompute them.
CREATE VIEW laurel.user_overview AS
SELECT u.name,
       sub.tier,
       sub.status,
       p.level,
       p.xp,
       CASE WHEN p.streak_holds_through < (now() AT TIME ZONE zone.time_zone)::date THEN 0 ELSE p.current_streak END AS current_streak,
       p.longest_streak,
       p.total_logs AS logs,
       p.unlocked,
       u.last_seen_at AS last_seen,
       (SELECT count(*) FROM laurel.challenges c
         WHERE c.user_id = u.id AND c.period = 'daily' AND c.completed_at IS NOT NULL
           AND c.period_start = (now() AT TIME ZONE zone.time_zone)::date) AS challenges_completed_today
  FROM laurel.users u
  LEFT JOIN laurel.progress p ON p.user_id = u.id
  LEFT JOIN LATERAL (
      SELECT s.time_zone FROM laurel.settings s WHERE s.user_id = u.id ORDER BY s.id DESC LIMIT 1
  ) AS zone ON true
  CROSS JOIN LATERAL laurel.subscription_at(u.id) sub;
