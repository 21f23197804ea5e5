-- Stores decided writes, each of its own user, set by set: one statement for all the batch's logs, one for all the
-- figures, and so on, so that per-statement costs are paid once per batch, not per write. The server decided each
-- write against the user's state at `version`; it is stored only if the user's progress row is still at that
-- version (optimistic concurrency: any other writer moved it on), and the row moves to the next version in the same
-- statement. Nothing here decides anything: the rows come as the server's rules made them.
--
-- What nearly every LOG writes is stored by the statement here (the version moved on, the log, unlocks, pushes,
-- figures, the latest day's scores); challenges chosen and completed and earlier days' scores by a second statement,
-- laurel.store_challenge_changes, and the rest (other facts, log deletions, settings, activities, templates,
-- snapshots) by a third, laurel.store_change_extras, each run only for a batch that has any of it. A statement's
-- fixed cost grows with its parts and with the columns each carries, every one made ready to run in every batch,
-- rows or none: with everything in it, this statement cost a batch of one LOG some 2.0 million instructions of
-- PostgreSQL's; as it is, 1.6 million (a single-user backend under callgrind, scripts/bench-commit).
--
-- `batch` holds the parts, one per user, ordered by user (so that concurrent batches lock users' rows in one order),
-- each with its place `n` in the batch; laurel.commit_part names and describes the fields. The server sends it in
-- binary format, which PostgreSQL reads field by field without parsing (as a JSON array read by
-- json_populate_recordset, reading it was some 40 % of a batch's cost).
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
DROP FUNCTION IF EXISTS laurel.store_changes(laurel.commit_part[]);
CREATE OR REPLACE FUNCTION laurel.store_changes(batch laurel.commit_part[])
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, fact_seq bigint, part_user bigint, announced text)
LANGUAGE plpgsql
SET enable_seqscan = off
SET enable_nestloop = off
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    part_n integer;
    part_has_extras boolean;
    -- The committed parts laurel.store_change_extras stores more of: their places, new versions and new facts' seqs.
    extra_parts integer[] := '{}';
    extra_versions bigint[] := '{}';
    extra_fact_seqs bigint[] := '{}';
    -- The committed parts laurel.store_challenge_changes stores more of, field by field.
    part_decided_us bigint;
    part_scores json;
    part_has_chosen boolean;
    part_completed json;
    challenge_users bigint[] := '{}';
    challenge_decided bigint[] := '{}';
    challenge_scores json[] := '{}';
    -- The places in `batch` of the committed parts that chose challenges (read from the batch, field by field).
    challenge_chosen integer[] := '{}';
    challenge_completed json[] := '{}';
BEGIN
    FOR outcome, new_version, new_last_seq, fact_seq, part_user, announced, part_n, part_has_extras, part_decided_us, part_scores,
        part_has_chosen, part_completed IN
    WITH parts AS (
        -- Only the fields the statement reads: every step of the plan is made ready for its columns in every batch.
        -- A fact id seen here was stored by a writer that committed before; one stored later moved the version on,
        -- which the update below checks under the row lock. A LOG's id is looked up here, by key (a lateral subquery
        -- with a limit cannot become a pass over a whole table, whatever the plan thought of its size); the other
        -- facts', rare, by laurel.fact_id_taken, so that no batch makes their look-ups ready.
        SELECT p.n, p.user_id, p.version, p.reloads, p.rebuilt, p.fact_kind, p.fact_id, p.activity, p.amount, p.at_us, p.day,
               p.local_hour, p.note, p.requested_us, p.response, p.unlocks, p.decided_us, p.push_kinds, p.push_data, p.has_figures,
               p.xp, p.level, p.max_level, p.current_streak, p.longest_streak, p.streak_freezes, p.streak_at_risk, p.last_active_day,
               p.streak_holds_through, p.challenge_xp, p.unlocked, p.total_logs, p.active_days, p.goal_met_week, p.allowance,
               p.allowance_us, p.latest_score_day, p.latest_scores, p.scores, p.chosen_period IS NOT NULL AS has_chosen, p.completed, p.announce,
               coalesce(cardinality(p.push_kinds), 0) AS push_count,
               CASE WHEN p.fact_kind = 'log' THEN seen.id IS NOT NULL
                    WHEN p.fact_kind IS NOT NULL THEN laurel.fact_id_taken(p.fact_kind, p.user_id, p.fact_id)
                    ELSE false END AS taken,
               -- What laurel.store_change_extras stores after this statement (rare: a LOG has none of it).
               (p.fact_kind IN ('lesson', 'event', 'reminder') OR p.deleted_log IS NOT NULL OR p.settings_zone IS NOT NULL
                OR p.custom_activity IS NOT NULL OR p.templates IS NOT NULL OR p.deleted_templates IS NOT NULL
                OR p.deleted_unlock_prefixes IS NOT NULL OR p.installed_listing IS NOT NULL OR p.snapshot IS NOT NULL) AS has_extras,
               -- What laurel.store_challenge_changes stores after it (a few LOGs a day).
               (p.scores IS NOT NULL OR p.chosen_period IS NOT NULL OR p.completed IS NOT NULL) AS has_challenges
          FROM unnest(batch) AS p
          LEFT JOIN LATERAL (
              SELECT l.id FROM laurel.logs l WHERE p.fact_kind = 'log' AND l.user_id = p.user_id AND l.id = p.fact_id LIMIT 1
          ) AS seen ON true
    ), stored AS (
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
        -- What the rows below store of each committed part, straight from the row the update joined it with. A new
        -- fact's seq is drawn here, after its user's row is locked, so that a user's facts get seqs in the order
        -- they commit (a catch-up reads the facts after the newest seq it counted), and the answer carries it
        -- without joining the inserted rows back to their parts.
        RETURNING parts.n, g.user_id, g.version AS bumped_version, g.last_seq AS bumped_last_seq, parts.fact_kind, parts.fact_id,
                  parts.activity, parts.amount, parts.at_us, parts.day, parts.local_hour, parts.note, parts.requested_us,
                  parts.response, parts.unlocks, parts.push_kinds, parts.push_data, parts.push_count,
                  'epoch'::timestamptz + parts.decided_us * interval '1 microsecond' AS decided_at,
                  CASE parts.fact_kind
                      WHEN 'log' THEN nextval('laurel.logs_seq_seq')
                      WHEN 'lesson' THEN nextval('laurel.lesson_completions_seq_seq')
                      WHEN 'event' THEN nextval('laurel.reported_events_seq_seq')
                      WHEN 'reminder' THEN nextval('laurel.reminders_seq_seq') END AS new_fact_seq
    ), new_logs AS (
        INSERT INTO laurel.logs (user_id, id, seq, activity_id, amount, at, day, local_hour, note, requested_at, response)
        OVERRIDING SYSTEM VALUE
        SELECT s.user_id, s.fact_id, s.new_fact_seq, s.activity, s.amount, 'epoch'::timestamptz + s.at_us * interval '1 microsecond',
               s.day, s.local_hour, s.note, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response
          FROM stored s WHERE s.fact_kind = 'log'
    ), unlocks_added AS (
        -- The lists taken apart in the select list (one ProjectSet step; the functions in one list advance together,
        -- a push's kind, data and place alike), not joined with a function scan of each: 4,400 instructions a part
        -- less, 8,400 with pushes (scripts/bench-commit).
        INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at)
        SELECT s.user_id, unnest(s.unlocks), s.decided_at FROM stored s
    ), pushes AS (
        INSERT INTO laurel.pushes (user_id, seq, kind, data)
        SELECT s.user_id, s.bumped_last_seq - s.push_count + generate_series(1, s.push_count), unnest(s.push_kinds), unnest(s.push_data)
          FROM stored s
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                ELSE 'stale' END,
           s.bumped_version,
           s.bumped_last_seq,
           s.new_fact_seq,
           p.user_id,
           CASE WHEN s.user_id IS NOT NULL THEN p.announce END,
           p.n,
           s.user_id IS NOT NULL AND p.has_extras,
           CASE WHEN s.user_id IS NOT NULL AND p.has_challenges THEN p.decided_us END,
           p.scores,
           p.has_chosen,
           p.completed
      FROM parts p
      LEFT JOIN stored s ON s.n = p.n
     ORDER BY p.n
    LOOP
        -- A part of a user without a progress row is of no user (deleted meanwhile): rare, so looked up here, not
        -- made ready in every batch's plan.
        IF outcome = 'stale' THEN
            IF NOT EXISTS (SELECT FROM laurel.progress x WHERE x.user_id = part_user) THEN
                outcome := 'unknown_user';
            END IF;
        END IF;
        IF part_decided_us IS NOT NULL THEN
            challenge_users := challenge_users || part_user;
            challenge_decided := challenge_decided || part_decided_us;
            challenge_scores := challenge_scores || part_scores;
            IF part_has_chosen THEN
                challenge_chosen := challenge_chosen || part_n;
            END IF;
            challenge_completed := challenge_completed || part_completed;
        END IF;
        IF part_has_extras THEN
            extra_parts := extra_parts || part_n;
            extra_versions := extra_versions || new_version;
            extra_fact_seqs := extra_fact_seqs || fact_seq;
        END IF;
        RETURN NEXT;
    END LOOP;
    IF cardinality(challenge_users) > 0 THEN
        PERFORM laurel.store_challenge_changes(challenge_users, challenge_decided, challenge_scores, challenge_completed, batch, challenge_chosen);
    END IF;
    IF cardinality(extra_parts) > 0 THEN
        PERFORM laurel.store_change_extras(batch, extra_parts, extra_versions, extra_fact_seqs);
    END IF;
END $$;
