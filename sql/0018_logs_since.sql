-- A session's catch-up with the LOGs another instance stored (PostgresStore.logsSince) as one function with a
-- cached generic plan. Under two instances' load nearly every LOG catches up first, and the statement sent as it
-- was cost the database more than the LOG commits did (pg_stat_statements and EXPLAIN ANALYZE, 2,000 logs/s over
-- two instances):
--   * PostgreSQL kept choosing custom plans for it, so every call was planned again (0.2-0.4 ms, more than it
--     took to run);
--   * laurel.challenge_xp(u.id) in its select list is a SQL function that is not inlined there, so its body was
--     prepared again for every call (about 0.08 ms of the 0.12 ms it ran).
-- Here the plan is made once per connection, like laurel.store_logs's, and the challenge XP is a plain subquery.
-- A STABLE function runs its query in the caller's snapshot: the answer is still one snapshot's.

CREATE FUNCTION laurel.logs_since(p_user bigint, p_version bigint, p_last_seq bigint, p_after_log_seq bigint,
                                  p_day date, p_week date)
RETURNS TABLE (state_version bigint, last_seq bigint, logs_only boolean, xp bigint, level integer, max_level integer,
               current_streak integer, longest_streak integer, shown_streak text, unlocks text, challenge_xp integer,
               challenges text, seq bigint, id text, activity_id text, amount integer, at_us bigint, day text,
               local_hour smallint)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    SELECT u.state_version, u.last_seq,
           (u.log_run_end = u.state_version AND u.log_run_seq = u.last_seq
            AND u.log_run_start <= p_version AND u.log_run_start_seq <= p_last_seq),
           p.xp, p.level, p.max_level, p.current_streak, p.longest_streak, p.shown_streak::text,
           (SELECT coalesce(json_object_agg(x.achievement_id, (extract(epoch FROM x.unlocked_at) * 1000000)::bigint), '{}')
              FROM laurel.unlocks x WHERE x.user_id = u.id)::text,
           (SELECT coalesce(sum(c.xp), 0)::integer FROM laurel.challenges c WHERE c.user_id = u.id AND c.completed_at IS NOT NULL),
           (SELECT coalesce(json_agg(json_build_object(
                       'period', c.period, 'start', to_char(c.period_start, 'YYYY-MM-DD'), 'slot', c.slot, 'kind', c.kind,
                       'title', c.title, 'target', c.target, 'xp', c.xp, 'activity_id', c.activity_id, 'hour', c.hour,
                       'completed_us', (extract(epoch FROM c.completed_at) * 1000000)::bigint)), '[]')
              FROM laurel.challenges c
             WHERE c.user_id = u.id AND ((c.period = 'daily' AND c.period_start = p_day)
                                         OR (c.period = 'weekly' AND c.period_start = p_week)))::text,
           l.seq, l.id, l.activity_id, l.amount, (extract(epoch FROM l.at) * 1000000)::bigint,
           to_char(l.day, 'YYYY-MM-DD'), l.local_hour
      FROM laurel.users u
      LEFT JOIN laurel.progress p ON p.user_id = u.id
      LEFT JOIN LATERAL (
          SELECT g.seq, g.id, g.activity_id, g.amount, g.at, g.day, g.local_hour
            FROM laurel.logs g WHERE g.user_id = u.id AND g.deleted_at IS NULL AND g.seq > p_after_log_seq
      ) l ON true
     WHERE u.id = p_user
     ORDER BY l.seq;
END $$;
