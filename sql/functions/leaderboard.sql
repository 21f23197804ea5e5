-- A global board in LEADERBOARD's order, for operators: `p_board` is `xp`, `logs`, `challenges` or `activity:ID`;
-- the score is the sum of the local days `p_from` to `p_to` (a day, an ISO week Monday to Sunday, a month; any wide
-- range for all time). Users who opted out are left out.
--   SELECT * FROM laurel.leaderboard('xp', '2026-11-23', '2026-11-29');
CREATE OR REPLACE FUNCTION laurel.leaderboard(p_board text, p_from date, p_to date, p_limit integer DEFAULT 100)
RETURNS TABLE (rank bigint, user_id bigint, name text, score numeric, reached_at timestamptz)
LANGUAGE sql STABLE AS $$
    SELECT row_number() OVER (ORDER BY b.score DESC, b.reached_at, b.user_id), b.user_id, u.name, b.score, b.reached_at
      FROM (SELECT d.user_id, sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
              FROM laurel.day_scores d
             WHERE d.board = p_board AND d.day BETWEEN p_from AND p_to
               AND NOT EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = d.user_id)
             GROUP BY d.user_id HAVING sum(d.score) > 0) b
      JOIN laurel.users u ON u.id = b.user_id
     ORDER BY b.score DESC, b.reached_at, b.user_id
     LIMIT p_limit;
$$;
