-- Stores decided writes, each of its own user, set by set: one statement for all the batch's logs, one for all the
-- figures, and so on, so that per-statement costs are paid once per batch, not per write. The server decided each
-- write against the user's state at `version`; it is stored only if the user's progress row is still at that
-- version (optimistic concurrency: any other writer moved it on), and the row moves to the next version in the same
-- statement. Nothing here decides anything: the rows come as the server's rules made them.
--
-- `batch` is a JSON array of parts (json, not jsonb: read once, and nested values keep their text), one per user,
-- ordered by user (so that concurrent batches lock users' rows in one order), each with its place `n` in the batch:
--   user_id, version         the user, and the version the write was decided against
--   reloads, rebuilt         the write changed more than facts, unlocks and challenges / recomputed the running state
--   fact_kind ... response   a new log, lesson completion, event or reminder (fact_kind 'log', 'lesson', 'event' or
--                            'reminder', with window_minutes and answered), with the first answer replayed to
--                            retries (a JSON object, stored byte for byte as sent)
--   deleted_log              a log id to mark deleted
--   settings_*               new settings in force from settings_day (zone, rest day, vacation, weekly goal,
--                            reminder window)
--   custom_activity          a custom activity created or changed: {"id","name","unit","icon","deleted"}
--   templates                templates created or changed, deleted_templates and deleted_unlock_prefixes;
--                            installed_listing: the marketplace listing a new template was installed from
--   unlocks, decided_us      achievements unlocked, and the moment of the decision (unlocks, completions, choices)
--   chosen, completed        challenges chosen now (rows) and stored ones completed now ({"period","period_start","slot"})
--   push_kinds, push_data    pushes to store with the user's next seqs, in this order (push_data: their objects)
--   has_figures, xp ...      the figures after the write (goal_met_week: the Monday of the week last pushed as met)
--   allowance, allowance_us  the log allowance after the write
--   snapshot                 the running state after the write (JSON text), when it was recomputed
--   scores                   board scores of days before the latest to move: [{"day","board","delta","reached_us"}]
--                            (a rise also sets reached_at)
--   latest_score_day, latest_scores
--                            the latest day's scores after the write, when they changed: {"BOARD": [score, reached_us]}
--   announce                 what the write adds to a session holding the version before, for the other instances
--                            (handed back untouched with a committed part, for laurel.commit_changes to announce)
--
-- One row per part, in batch order: 'committed' (with the new version, the last push seq, the new fact's seq and
-- the part's `announce`),
-- or, with nothing written for it, 'stale' (the version moved on), 'duplicate' (the fact's id is taken) or
-- 'unknown_user'. Anything that raises fails the whole call; laurel.commit_changes decides what that rolls back.
--
-- By index, always, whatever the statistics said when the plan was made (a plan cached while the tables were small
-- would otherwise scan them for good); and one plan per connection, not one per call.
DROP FUNCTION IF EXISTS laurel.store_changes(jsonb);
DROP FUNCTION IF EXISTS laurel.store_changes(json);
CREATE OR REPLACE FUNCTION laurel.store_changes(batch json)
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, fact_seq bigint, part_user bigint, announced json)
LANGUAGE plpgsql
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    RETURN QUERY
    WITH sent AS (
        SELECT p.*
          FROM json_to_recordset(batch) AS p(
                   n integer, user_id bigint, version bigint, reloads boolean, rebuilt boolean,
                   fact_kind text, fact_id text, activity text, amount integer, lesson text, category text, event text,
                   at_us bigint, day date, local_hour smallint, note text, requested_us bigint, response json,
                   deleted_log text, settings_zone text, settings_rest smallint, settings_vacation boolean, settings_goal smallint, settings_window smallint, settings_leaderboards boolean,
                   settings_day date, window_minutes smallint, answered boolean,
                   custom_activity json, templates json, deleted_templates uuid[], deleted_unlock_prefixes text[],
                   installed_listing uuid,
                   unlocks text[], decided_us bigint, chosen json, completed json, push_kinds text[], push_data json,
                   has_figures boolean, xp bigint, level integer, max_level integer, current_streak integer,
                   longest_streak integer, streak_freezes smallint, streak_at_risk boolean, last_active_day date,
                   streak_holds_through date, challenge_xp integer, unlocked integer, total_logs integer, active_days integer,
                   goal_met_week date, allowance double precision, allowance_us bigint, snapshot text, scores json,
                   latest_score_day date, latest_scores json, announce json)
    ), parts AS (
        -- A fact id seen here was stored by a writer that committed before; one stored later moved the version on,
        -- which the update below checks under the row lock. A lookup per part by key (a lateral subquery with a
        -- limit cannot become a pass over a whole table, whatever the plan thought of its size).
        SELECT p.*, coalesce(cardinality(p.push_kinds), 0) AS push_count, seen.id IS NOT NULL AS taken
          FROM sent p
          LEFT JOIN LATERAL (
              SELECT l.id FROM laurel.logs l WHERE p.fact_kind = 'log' AND l.user_id = p.user_id AND l.id = p.fact_id
              UNION ALL
              SELECT c.id FROM laurel.lesson_completions c WHERE p.fact_kind = 'lesson' AND c.user_id = p.user_id AND c.id = p.fact_id
              UNION ALL
              SELECT e.id FROM laurel.reported_events e WHERE p.fact_kind = 'event' AND e.user_id = p.user_id AND e.id = p.fact_id
              UNION ALL
              SELECT r.id FROM laurel.reminders r WHERE p.fact_kind = 'reminder' AND r.user_id = p.user_id AND r.id = p.fact_id
              LIMIT 1
          ) AS seen ON true
    ), bumped AS (
        UPDATE laurel.progress g
           SET version = g.version + 1,
               last_seq = g.last_seq + parts.push_count,
               reload_version = CASE WHEN parts.reloads THEN g.version + 1 ELSE g.reload_version END,
               rebuilt_version = CASE WHEN parts.rebuilt THEN g.version + 1 ELSE g.rebuilt_version END,
               xp = CASE WHEN parts.has_figures THEN parts.xp ELSE g.xp END,
               level = CASE WHEN parts.has_figures THEN parts.level ELSE g.level END,
               max_level = CASE WHEN parts.has_figures THEN parts.max_level ELSE g.max_level END,
               current_streak = CASE WHEN parts.has_figures THEN parts.current_streak ELSE g.current_streak END,
               longest_streak = CASE WHEN parts.has_figures THEN parts.longest_streak ELSE g.longest_streak END,
               streak_freezes = CASE WHEN parts.has_figures THEN parts.streak_freezes ELSE g.streak_freezes END,
               streak_at_risk = CASE WHEN parts.has_figures THEN parts.streak_at_risk ELSE g.streak_at_risk END,
               last_active_day = CASE WHEN parts.has_figures THEN parts.last_active_day ELSE g.last_active_day END,
               streak_holds_through = CASE WHEN parts.has_figures THEN parts.streak_holds_through ELSE g.streak_holds_through END,
               challenge_xp = CASE WHEN parts.has_figures THEN parts.challenge_xp ELSE g.challenge_xp END,
               unlocked = CASE WHEN parts.has_figures THEN parts.unlocked ELSE g.unlocked END,
               total_logs = CASE WHEN parts.has_figures THEN parts.total_logs ELSE g.total_logs END,
               active_days = CASE WHEN parts.has_figures THEN parts.active_days ELSE g.active_days END,
               goal_met_week = CASE WHEN parts.has_figures THEN parts.goal_met_week ELSE g.goal_met_week END,
               log_allowance = coalesce(parts.allowance, g.log_allowance),
               log_allowance_at = coalesce('epoch'::timestamptz + parts.allowance_us * interval '1 microsecond', g.log_allowance_at),
               latest_score_day = coalesce(parts.latest_score_day, g.latest_score_day),
               latest_scores = CASE WHEN parts.latest_score_day IS NOT NULL THEN parts.latest_scores ELSE g.latest_scores END,
               updated_at = now()
          FROM parts
         WHERE g.user_id = parts.user_id AND g.version = parts.version AND NOT parts.taken
        RETURNING g.user_id AS bumped_user, g.version AS bumped_version, g.last_seq AS bumped_last_seq
    ), stored AS (
        -- A new fact's seq is drawn here, after its user's row is locked above, so that a user's facts get seqs in
        -- the order they commit (a catch-up reads the facts after the newest seq it counted), and the answer carries
        -- it without joining the inserted rows back to their parts.
        SELECT parts.*, bumped.bumped_version, bumped.bumped_last_seq,
               'epoch'::timestamptz + parts.decided_us * interval '1 microsecond' AS decided_at,
               CASE parts.fact_kind
                   WHEN 'log' THEN nextval('laurel.logs_seq_seq')
                   WHEN 'lesson' THEN nextval('laurel.lesson_completions_seq_seq')
                   WHEN 'event' THEN nextval('laurel.reported_events_seq_seq')
                   WHEN 'reminder' THEN nextval('laurel.reminders_seq_seq') END AS new_fact_seq
          FROM parts JOIN bumped ON bumped.bumped_user = parts.user_id
    ), new_logs AS (
        INSERT INTO laurel.logs (user_id, id, seq, activity_id, amount, at, day, local_hour, note, requested_at, response)
        OVERRIDING SYSTEM VALUE
        SELECT s.user_id, s.fact_id, s.new_fact_seq, s.activity, s.amount, 'epoch'::timestamptz + s.at_us * interval '1 microsecond',
               s.day, s.local_hour, s.note, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response
          FROM stored s WHERE s.fact_kind = 'log'
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
    ), scores AS (
        INSERT INTO laurel.earlier_day_scores AS k (user_id, day, board, score, reached_at)
        SELECT s.user_id, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
          FROM stored s CROSS JOIN LATERAL json_to_recordset(s.scores) AS x(day date, board text, delta bigint, reached_us bigint)
         WHERE s.scores IS NOT NULL
        ON CONFLICT (user_id, day, board) DO UPDATE
           SET score = k.score + EXCLUDED.score,
               reached_at = CASE WHEN EXCLUDED.score > 0 THEN EXCLUDED.reached_at ELSE k.reached_at END
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
    ), unlocks_added AS (
        INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at)
        SELECT s.user_id, unlocked.id, s.decided_at FROM stored s CROSS JOIN LATERAL unnest(s.unlocks) AS unlocked(id)
    ), pushes AS (
        INSERT INTO laurel.pushes (user_id, seq, kind, data)
        SELECT s.user_id, s.bumped_last_seq - s.push_count + pushed.n, pushed.kind, pushed.data
          FROM stored s
         CROSS JOIN LATERAL unnest(s.push_kinds, ARRAY(SELECT json_array_elements(s.push_data))) WITH ORDINALITY AS pushed(kind, data, n)
    ), chosen AS (
        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, activity_id, hour, chosen_at, completed_at)
        SELECT s.user_id, x.period, x.period_start, x.slot, x.kind, x.title, x.target, x.xp, x.activity_id, x.hour, s.decided_at,
               CASE WHEN x.completed THEN s.decided_at END
          FROM stored s
         CROSS JOIN LATERAL json_to_recordset(s.chosen) AS x(period text, period_start date, slot smallint, kind text, title text,
                                                              target integer, xp integer, activity_id text, hour smallint, completed boolean)
         WHERE s.chosen IS NOT NULL
    ), completions AS (
        -- Decided at the version they are stored at, so still open; the condition keeps a completion permanent
        -- anyway.
        UPDATE laurel.challenges c SET completed_at = s.decided_at
          FROM stored s
         CROSS JOIN LATERAL json_to_recordset(s.completed) AS done(period text, period_start date, slot smallint)
         WHERE c.user_id = ANY (ARRAY(SELECT t.user_id FROM stored t WHERE t.completed IS NOT NULL))
           AND c.user_id = s.user_id AND c.period = done.period AND c.period_start = done.period_start AND c.slot = done.slot
           AND c.completed_at IS NULL
    ), snapshots AS (
        -- The last seqs name the newest facts the state counts (a log deleted in this statement is still seen as
        -- live here: it has an earlier seq than any log a later session adds, so it is never added again).
        INSERT INTO laurel.progress_snapshots AS p (user_id, version, last_log_seq, last_lesson_seq, last_event_seq, last_reminder_seq, state)
        SELECT s.user_id, s.bumped_version,
               (SELECT coalesce(max(l.seq), 0) FROM laurel.logs l WHERE l.user_id = s.user_id AND l.deleted_at IS NULL),
               (SELECT coalesce(max(c.seq), 0) FROM laurel.lesson_completions c WHERE c.user_id = s.user_id),
               (SELECT coalesce(max(e.seq), 0) FROM laurel.reported_events e WHERE e.user_id = s.user_id),
               (SELECT coalesce(max(r.seq), 0) FROM laurel.reminders r WHERE r.user_id = s.user_id),
               s.snapshot::json
          FROM stored s WHERE s.snapshot IS NOT NULL
        ON CONFLICT (user_id) DO UPDATE SET version = EXCLUDED.version, last_log_seq = EXCLUDED.last_log_seq,
            last_lesson_seq = EXCLUDED.last_lesson_seq, last_event_seq = EXCLUDED.last_event_seq,
            last_reminder_seq = EXCLUDED.last_reminder_seq, state = EXCLUDED.state
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                WHEN known.user_id IS NOT NULL THEN 'stale'
                ELSE 'unknown_user' END,
           s.bumped_version,
           s.bumped_last_seq,
           s.new_fact_seq,
           p.user_id,
           CASE WHEN s.user_id IS NOT NULL THEN p.announce END
      FROM parts p
      LEFT JOIN stored s ON s.n = p.n
      LEFT JOIN LATERAL (
          SELECT x.user_id FROM laurel.progress x WHERE x.user_id = p.user_id AND s.user_id IS NULL LIMIT 1
      ) AS known ON true
     ORDER BY p.n;
END $$;
