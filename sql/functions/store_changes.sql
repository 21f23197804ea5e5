-- Stores decided writes, each of its own user, set by set: one statement for all the batch's logs, one for all the
-- figures, and so on, so that per-statement costs are paid once per batch, not per write. The server decided each
-- write against the user's state at `version`; it is stored only if the user's progress row is still at that
-- version (optimistic concurrency: any other writer moved it on), and the row moves to the next version in the same
-- statement. Nothing here decides anything: the rows come as the server's rules made them.
--
-- What a LOG writes is stored by the statement here; the rest (other facts, log deletions, settings, activities,
-- templates, snapshots) by a second, laurel.store_change_extras, run only for a batch that has any of it. A
-- statement's fixed cost grows with its parts, each made ready to run whether it has rows or not: with the rest in
-- it too, this statement cost every batch about 100 µs more of PostgreSQL's time (some 190 µs against 95 for an
-- empty batch, called 2,000 times in one session), rows or none.
--
-- `batch` is a JSON array of parts (json, not jsonb: read once, and nested values keep their text), one per user,
-- ordered by user (so that concurrent batches lock users' rows in one order), each with its place `n` in the batch;
-- laurel.commit_part names and describes the fields.
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
DECLARE
    part_n integer;
    part_has_extras boolean;
    -- The committed parts laurel.store_change_extras stores more of: their places, new versions and new facts' seqs.
    extra_parts integer[] := '{}';
    extra_versions bigint[] := '{}';
    extra_fact_seqs bigint[] := '{}';
BEGIN
    FOR outcome, new_version, new_last_seq, fact_seq, part_user, announced, part_n, part_has_extras IN
    WITH sent AS (
        SELECT p.* FROM json_populate_recordset(NULL::laurel.commit_part, batch) AS p
    ), parts AS (
        -- A fact id seen here was stored by a writer that committed before; one stored later moved the version on,
        -- which the update below checks under the row lock. A lookup per part by key (a lateral subquery with a
        -- limit cannot become a pass over a whole table, whatever the plan thought of its size).
        SELECT p.*, coalesce(cardinality(p.push_kinds), 0) AS push_count, seen.id IS NOT NULL AS taken,
               -- What laurel.store_change_extras stores after this statement (rare: a LOG has none of it).
               (p.fact_kind IN ('lesson', 'event', 'reminder') OR p.deleted_log IS NOT NULL OR p.settings_zone IS NOT NULL
                OR p.custom_activity IS NOT NULL OR p.templates IS NOT NULL OR p.deleted_templates IS NOT NULL
                OR p.deleted_unlock_prefixes IS NOT NULL OR p.installed_listing IS NOT NULL OR p.snapshot IS NOT NULL) AS has_extras
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
         -- The batch's users named as keys of their own: a plan made once many users exist otherwise joins the
         -- batch with the table's whole key (a merge join from its first user to the batch's last), every batch.
         WHERE g.user_id = ANY (ARRAY(SELECT t.user_id FROM parts t))
           AND g.user_id = parts.user_id AND g.version = parts.version AND NOT parts.taken
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
    ), scores AS (
        INSERT INTO laurel.earlier_day_scores AS k (user_id, day, board, score, reached_at)
        SELECT s.user_id, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
          FROM stored s CROSS JOIN LATERAL json_to_recordset(s.scores) AS x(day date, board text, delta bigint, reached_us bigint)
         WHERE s.scores IS NOT NULL
        ON CONFLICT (user_id, day, board) DO UPDATE
           SET score = k.score + EXCLUDED.score,
               reached_at = CASE WHEN EXCLUDED.score > 0 THEN EXCLUDED.reached_at ELSE k.reached_at END
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
    
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                WHEN known.user_id IS NOT NULL THEN 'stale'
                ELSE 'unknown_user' END,
           s.bumped_version,
           s.bumped_last_seq,
           s.new_fact_seq,
           p.user_id,
           CASE WHEN s.user_id IS NOT NULL THEN p.announce END,
           p.n,
           s.user_id IS NOT NULL AND p.has_extras
      FROM parts p
      LEFT JOIN stored s ON s.n = p.n
      LEFT JOIN LATERAL (
          SELECT x.user_id FROM laurel.progress x WHERE x.user_id = p.user_id AND s.user_id IS NULL LIMIT 1
      ) AS known ON true
     ORDER BY p.n
    LOOP
        IF part_has_extras THEN
            extra_parts := extra_parts || part_n;
            extra_versions := extra_versions || new_version;
            extra_fact_seqs := extra_fact_seqs || fact_seq;
        END IF;
        RETURN NEXT;
    END LOOP;
    IF cardinality(extra_parts) > 0 THEN
        PERFORM laurel.store_change_extras(batch, extra_parts, extra_versions, extra_fact_seqs);
    END IF;
END $$;
