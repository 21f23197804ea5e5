-- What a session at `p_version` lacks, when every write since was of the kinds a session can add to what it holds
-- (`addable`: new facts, unlocks, challenges and figures; laurel.progress.reload_version says when something else
-- changed, and then the session loads the user again). One statement, so one snapshot: the user's figures, latest
-- day's scores and log allowance now, every unlock, the stored challenges of the periods the session holds
-- (`p_periods`: [{"period", "start"}]), and one row per fact stored after the newest the session counts (logs after
-- `p_after_log`, lesson completions after `p_after_lesson`, events after `p_after_event`), or one row without a fact.
-- A function so that its plan is made once per connection: as a plain statement PostgreSQL kept planning it anew.
DROP FUNCTION IF EXISTS laurel.changes_since(bigint, bigint, bigint, bigint, bigint, jsonb);
CREATE OR REPLACE FUNCTION laurel.changes_since(
    p_user bigint, p_version bigint, p_after_log bigint, p_after_lesson bigint, p_after_event bigint, p_periods jsonb
)
RETURNS TABLE (version bigint, last_seq bigint, addable boolean, xp bigint, level integer, max_level integer,
               current_streak integer, longest_streak integer, streak_freezes smallint, streak_at_risk boolean,
               last_active_day text, streak_holds_through text, challenge_xp integer, unlocked integer, total_logs integer,
               active_days integer, goal_met_week text, log_allowance double precision, log_allowance_us bigint, unlocks text, challenges text,
               kind text, seq bigint, id text, activity_id text, amount integer, at_us bigint, day text, local_hour smallint,
               lesson_id text, category text, latest_score_day text, latest_scores text)
LANGUAGE plpgsql STABLE
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH facts AS (
        SELECT 'log'::text AS kind, l.seq, l.id, l.activity_id, l.amount, l.at, l.day, l.local_hour,
               NULL::text AS lesson_id, NULL::text AS category
          FROM laurel.logs l WHERE l.user_id = p_user AND l.deleted_at IS NULL AND l.seq > p_after_log
        UNION ALL
        SELECT 'lesson', c.seq, c.id, NULL, 0, c.at, c.day, NULL, c.lesson_id, c.category
          FROM laurel.lesson_completions c WHERE c.user_id = p_user AND c.seq > p_after_lesson
        UNION ALL
        SELECT 'event', e.seq, e.id, NULL, 0, e.at, e.day, NULL, e.name, NULL
          FROM laurel.reported_events e WHERE e.user_id = p_user AND e.seq > p_after_event
    )
    SELECT g.version, g.last_seq, g.reload_version <= p_version, g.xp, g.level, g.max_level, g.current_streak,
           g.longest_streak, g.streak_freezes, g.streak_at_risk, to_char(g.last_active_day, 'YYYY-MM-DD'),
           to_char(g.streak_holds_through, 'YYYY-MM-DD'), g.challenge_xp, g.unlocked, g.total_logs, g.active_days,
           to_char(g.goal_met_week, 'YYYY-MM-DD'), g.log_allowance, (extract(epoch FROM g.log_allowance_at) * 1000000)::bigint,
           (SELECT coalesce(json_object_agg(k.achievement_id, (extract(epoch FROM k.unlocked_at) * 1000000)::bigint), '{}')
              FROM laurel.unlocks k WHERE k.user_id = p_user)::text,
           (SELECT coalesce(json_agg(json_build_object(
                       'period', c.period, 'start', to_char(c.period_start, 'YYYY-MM-DD'), 'slot', c.slot, 'kind', c.kind,
                       'title', c.title, 'target', c.target, 'xp', c.xp, 'activity_id', c.activity_id, 'hour', c.hour,
                       'completed_us', (extract(epoch FROM c.completed_at) * 1000000)::bigint)), '[]')
              FROM jsonb_to_recordset(p_periods) AS held(period text, start date)
              JOIN laurel.challenges c ON c.user_id = p_user AND c.period = held.period AND c.period_start = held.start)::text,
           f.kind, f.seq, f.id, f.activity_id, f.amount, (extract(epoch FROM f.at) * 1000000)::bigint,
           to_char(f.day, 'YYYY-MM-DD'), f.local_hour, f.lesson_id, f.category,
           to_char(g.latest_score_day, 'YYYY-MM-DD'), g.latest_scores::text
      FROM laurel.progress g
      LEFT JOIN facts f ON g.reload_version <= p_version
     WHERE g.user_id = p_user;
END $$;
