-- The rest of a batch's writes, after laurel.store_changes stored what a LOG writes (the version checked and moved on,
-- the logs, unlocks, pushes and scores, and with laurel.store_challenge_changes the challenges and earlier days'
-- scores) in the same transaction: lesson completions, events and reminders,
-- log deletions, settings, custom activities, templates and their installs, and recomputed snapshots. `parts` are the
-- places in `batch` of the committed parts that have any of these, with their new versions and their new facts'
-- seqs (drawn by laurel.store_changes, whose `has_extras` names the fields that send a part here: it must name
-- every field a statement below reads to decide whether a part has rows in it).
--
-- This runs as a statement after laurel.store_changes's, so it sees that one's rows; where the single statement the
-- two once were did not, it leaves them out: a snapshot names the newest log before the write's own, and deleted
-- unlocks are never the ones the same write added.
--
-- It runs inside laurel.store_changes, which turns nested loops off; its own statements, rare and bounded by the
-- batch's arrays, keep them on, as they were planned and measured (with them off, a listing's EXISTS could become
-- a hash of every listing).
DROP FUNCTION IF EXISTS laurel.store_change_extras(json, integer[], bigint[], bigint[]);
CREATE OR REPLACE FUNCTION laurel.store_change_extras(batch laurel.commit_part[], parts integer[], versions bigint[], fact_seqs bigint[])
RETURNS void
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_nestloop = on
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    WITH stored AS (
        SELECT p.*, c.bumped_version, c.new_fact_seq,
               CASE WHEN p.fact_kind = 'log' THEN c.new_fact_seq END AS log_seq,
               'epoch'::timestamptz + p.decided_us * interval '1 microsecond' AS decided_at
          FROM unnest(batch) AS p
          JOIN unnest(parts, versions, fact_seqs) AS c(n, bumped_version, new_fact_seq) ON c.n = p.n
    ), new_lessons AS (
        INSERT INTO laurel.lesson_completions (user_id, id, seq, lesson_id, category, at, day, requested_at, response)
        OVERRIDING SYSTEM VALUE
        SELECT s.user_id, s.fact_id, s.new_fact_seq, s.lesson, s.category, 'epoch'::timestamptz + s.at_us * interval '1 microsecond',
               s.day, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response
          FROM stored s WHERE s.fact_kind = 'lesson'
    ), new_events AS (
        INSERT INTO laurel.reported_events (user_id, id, seq, name, at, day, requested_at, response)
        OVERRIDING SYSTEM VALUE
        SELECT s.user_id, s.fact_id, s.new_fact_seq, s.event, 'epoch'::timestamptz + s.at_us * interval '1 microsecond', s.day,
               'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response
          FROM stored s WHERE s.fact_kind = 'event'
    ), new_reminders AS (
        INSERT INTO laurel.reminders (user_id, id, seq, at, day, window_minutes, answered, requested_at, response)
        OVERRIDING SYSTEM VALUE
        SELECT s.user_id, s.fact_id, s.new_fact_seq, 'epoch'::timestamptz + s.at_us * interval '1 microsecond', s.day,
               s.window_minutes, s.answered, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response
          FROM stored s WHERE s.fact_kind = 'reminder'
    ), deleted_logs AS (
        -- Rows that existing tables hold are reached by index conditions on arrays computed once from the batch
        -- (empty when no part deletes anything), here and below: a plan made while a table was small would
        -- otherwise walk the whole table for every batch once it is large.
        UPDATE laurel.logs l SET deleted_at = s.decided_at
          FROM stored s
         WHERE l.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.deleted_log IS NOT NULL))
           AND l.id = ANY (ARRAY(SELECT t.deleted_log FROM stored t WHERE t.deleted_log IS NOT NULL))
           AND l.user_id = s.user_id AND l.id = s.deleted_log AND l.deleted_at IS NULL
    ), new_settings AS (
        INSERT INTO laurel.settings (user_id, changed_at, effective_day, time_zone, rest_day, vacation, weekly_goal,
                                     reminder_window_minutes, leaderboards)
        SELECT s.user_id, s.decided_at, s.settings_day, s.settings_zone, s.settings_rest, s.settings_vacation, s.settings_goal,
               s.settings_window, coalesce(s.settings_leaderboards, true)
          FROM stored s WHERE s.settings_zone IS NOT NULL
    ), opt_outs AS (
        INSERT INTO laurel.leaderboard_opt_outs (user_id)
        SELECT s.user_id FROM stored s WHERE s.settings_zone IS NOT NULL AND s.settings_leaderboards IS FALSE
        ON CONFLICT (user_id) DO NOTHING
    ), opt_ins AS (
        DELETE FROM laurel.leaderboard_opt_outs o
         WHERE o.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.settings_zone IS NOT NULL AND t.settings_leaderboards))
    ), activities AS (
        INSERT INTO laurel.custom_activities (user_id, id, name, unit, icon, created_at, deleted_at)
        SELECT s.user_id, x.id, x.name, x.unit, x.icon, s.decided_at, CASE WHEN x.deleted THEN s.decided_at END
          FROM stored s CROSS JOIN LATERAL json_to_record(s.custom_activity) AS x(id text, name text, unit text, icon text, deleted boolean)
         WHERE s.custom_activity IS NOT NULL
        ON CONFLICT (user_id, id) DO UPDATE SET deleted_at = EXCLUDED.deleted_at
    ), templates_saved AS (
        INSERT INTO laurel.templates (id, user_id, activity_id, name, type, tiers, active, inactive_reason, created_at, updated_at,
                                      listing_id, combo)
        SELECT x.id, s.user_id, x.activity_id, x.name, x.type, x.tiers::json, x.active, x.inactive_reason,
               'epoch'::timestamptz + x.created_us * interval '1 microsecond', 'epoch'::timestamptz + x.updated_us * interval '1 microsecond',
               x.listing_id, x.combo::json
          FROM stored s
         CROSS JOIN LATERAL json_to_recordset(s.templates) AS x(id uuid, activity_id text, name text, type text, tiers text,
                                                                 active boolean, inactive_reason text, created_us bigint, updated_us bigint,
                                                                 listing_id uuid, combo text)
         WHERE s.templates IS NOT NULL
        ON CONFLICT (user_id, id) DO UPDATE SET name = EXCLUDED.name, tiers = EXCLUDED.tiers, active = EXCLUDED.active,
            inactive_reason = EXCLUDED.inactive_reason, updated_at = EXCLUDED.updated_at
    ), installs AS (
        -- Each installer counts once; a listing unpublished meanwhile counts nothing.
        INSERT INTO laurel.listing_installs (listing_id, user_id)
        SELECT s.installed_listing, s.user_id FROM stored s
         WHERE s.installed_listing IS NOT NULL
           AND EXISTS (SELECT 1 FROM laurel.listings l WHERE l.id = s.installed_listing)
        ON CONFLICT DO NOTHING
        RETURNING listing_id
    ), installs_counted AS (
        UPDATE laurel.listings l SET installs = l.installs + 1
          FROM installs i WHERE l.id = ANY (ARRAY(SELECT i2.listing_id FROM installs i2)) AND l.id = i.listing_id
    ), templates_deleted AS (
        DELETE FROM laurel.templates t USING stored s
         WHERE t.user_id = ANY (ARRAY(SELECT u.user_id FROM stored u WHERE u.deleted_templates IS NOT NULL))
           AND t.id = ANY (ARRAY(SELECT gone.id FROM stored u CROSS JOIN LATERAL unnest(u.deleted_templates) AS gone(id)))
           AND t.user_id = s.user_id AND t.id = ANY (s.deleted_templates)
    ), unlocks_deleted AS (
        DELETE FROM laurel.unlocks k USING stored s CROSS JOIN LATERAL unnest(s.deleted_unlock_prefixes) AS gone(prefix)
         WHERE k.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.deleted_unlock_prefixes IS NOT NULL))
           AND k.user_id = s.user_id AND starts_with(k.achievement_id, gone.prefix)
           AND NOT (k.achievement_id = ANY (coalesce(s.unlocks, '{}')))
    )
    -- The last seqs name the newest facts the state counts (a log deleted in this statement is still seen as live
    -- here: it has an earlier seq than any log a later session adds, so it is never added again).
    INSERT INTO laurel.progress_snapshots AS p (user_id, version, last_log_seq, last_lesson_seq, last_event_seq, last_reminder_seq, state)
    SELECT s.user_id, s.bumped_version,
           (SELECT coalesce(max(l.seq), 0) FROM laurel.logs l
             WHERE l.user_id = s.user_id AND l.deleted_at IS NULL AND l.seq IS DISTINCT FROM s.log_seq),
           (SELECT coalesce(max(c.seq), 0) FROM laurel.lesson_completions c WHERE c.user_id = s.user_id),
           (SELECT coalesce(max(e.seq), 0) FROM laurel.reported_events e WHERE e.user_id = s.user_id),
           (SELECT coalesce(max(r.seq), 0) FROM laurel.reminders r WHERE r.user_id = s.user_id),
           s.snapshot::json
      FROM stored s WHERE s.snapshot IS NOT NULL
    ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version, last_log_seq = EXCLUDED.last_log_seq,
        last_lesson_seq = EXCLUDED.last_lesson_seq, last_event_seq = EXCLUDED.last_event_seq,
        last_reminder_seq = EXCLUDED.last_reminder_seq, state = EXCLUDED.state;
END $$;
