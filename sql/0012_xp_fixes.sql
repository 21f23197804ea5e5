-- Fixes to what the engine counts and stores (rules.md, "XP and levels", "Achievements", "Achievement templates").
--
-- 1. A template's achievement ids no longer name the tier: `tpl.<template>.<target>` (with `.w<minutes>` for a speed
--    tier), since targets are unique within a template. Renaming a tier with the same target therefore keeps its
--    unlock and its date. Unlocks stored under the earlier ids (`tpl.<template>.<tier name>.<target>[.w<minutes>]`,
--    the tier's name lowercased and possibly holding dots) move to the new ones; when two earlier ids become one
--    (a tier renamed before this migration was unlocked once more under its new name), the earliest unlock stays.
--    Unlocks of tiers no longer listed move too: they stay in the history (ACCOUNT.EXPORT), and come back with their
--    date if the tier does. Stored pushes and the answers kept for retries are left as they were sent.
--
-- 2. laurel.progress.streak_holds_through: the last local day through which current_streak holds without new
--    activity (freezes, rest days and vacations considered; NULL when nothing can break it: no streak, or a vacation
--    on). The engine writes it with the figures (laurel.store_logs for the LOGs a session commits), so that
--    laurel.user_overview can show the streak of today, 0 once that day has passed, whether or not the user came
--    back to be evaluated.
--
-- 3. laurel.user_overview counts as `unlocked` what PROFILE counts and XP pays for: the catalog's unlocks and those
--    of the current tiers of the user's templates, not unlocks of changed or removed tiers.

CREATE TEMPORARY TABLE template_unlock_ids AS
WITH parsed AS (
    SELECT user_id, achievement_id, unlocked_at,
           regexp_match(achievement_id, '^(tpl\.[0-9a-f-]{36}\.).+\.([0-9]+)(\.w[0-9]+)?$') AS part
      FROM laurel.unlocks
     WHERE starts_with(achievement_id, 'tpl.')
), renamed AS (
    SELECT user_id, achievement_id, unlocked_at,
           coalesce(part[1] || part[2] || coalesce(part[3], ''), achievement_id) AS new_id
      FROM parsed
)
SELECT user_id, achievement_id, new_id,
       row_number() OVER (PARTITION BY user_id, new_id ORDER BY unlocked_at, achievement_id) AS rank
  FROM renamed;

-- An id in the new form never matches the earlier form, so after the duplicates are gone no renamed row meets
-- another row's id.
DELETE FROM laurel.unlocks k USING template_unlock_ids i
 WHERE k.user_id = i.user_id AND k.achievement_id = i.achievement_id AND i.rank > 1;
UPDATE laurel.unlocks k SET achievement_id = i.new_id FROM template_unlock_ids i
 WHERE k.user_id = i.user_id AND k.achievement_id = i.achievement_id AND i.new_id <> i.achievement_id;
DROP TABLE template_unlock_ids;

ALTER TABLE laurel.progress ADD COLUMN streak_holds_through date;
ALTER TYPE laurel.log_commit ADD ATTRIBUTE streak_holds_through date;

-- Rows saved before this migration: the day is worked out from what their last evaluation showed (shown_streak is
-- the walk as of the local day of updated_at) and the settings in force now, which were in force then (a settings
-- change is evaluated, and saved, at once). From the next evaluation on, the engine stores the day itself.
UPDATE laurel.progress p
   SET streak_holds_through = (
        SELECT d::date
          FROM generate_series(w.first_day, w.first_day + 60, interval '1 day') AS d
         WHERE w.rest_day IS NULL OR extract(isodow FROM d) <> w.rest_day
         ORDER BY d
        OFFSET w.freezes LIMIT 1)
  FROM (
    SELECT q.user_id, s.rest_day, coalesce((q.shown_streak->>'freezes')::integer, 0) AS freezes,
           greatest((q.shown_streak->>'last_active_day')::date + 1, (q.updated_at AT TIME ZONE s.time_zone)::date) AS first_day
      FROM laurel.progress q
      CROSS JOIN LATERAL (
          SELECT x.time_zone, x.rest_day, x.vacation FROM laurel.settings x WHERE x.user_id = q.user_id ORDER BY x.id DESC LIMIT 1
      ) AS s
     WHERE (q.shown_streak->>'current')::integer > 0 AND q.shown_streak->>'last_active_day' IS NOT NULL AND NOT s.vacation
  ) AS w
 WHERE p.user_id = w.user_id;

-- laurel.store_logs of migration 0011, storing streak_holds_through with the figures.
CREATE OR REPLACE FUNCTION laurel.store_logs(batch jsonb)
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, log_seq bigint, part_user bigint)
LANGUAGE plpgsql
SET enable_seqscan = off
SET plan_cache_mode = force_generic_plan
AS $$
BEGIN
    RETURN QUERY
    WITH parts AS (
        -- A log id seen here was stored by a writer that committed before; one stored later moved the version
        -- on, which the update below checks under the user's row lock. (A lateral lookup per part, so that
        -- no plan can turn it into a pass over all logs.)
        SELECT p.*, coalesce(cardinality(p.push_kinds), 0) AS push_count, coalesce(found.taken, false) AS taken
          FROM jsonb_populate_recordset(NULL::laurel.log_commit, batch) WITH ORDINALITY AS p
          LEFT JOIN LATERAL (
              SELECT true AS taken FROM laurel.logs l WHERE l.user_id = p.user_id AND l.id = p.id LIMIT 1
          ) AS found ON true
    ), bumped AS (
        UPDATE laurel.users u
           SET state_version = u.state_version + 1, last_seq = u.last_seq + parts.push_count,
               -- The run goes on when the version and the last push seq are still the ones the previous LOG
               -- commit left; anything else in between starts a new run here.
               log_run_start = CASE WHEN u.log_run_end = u.state_version AND u.log_run_seq = u.last_seq
                                    THEN u.log_run_start ELSE u.state_version END,
               log_run_start_seq = CASE WHEN u.log_run_end = u.state_version AND u.log_run_seq = u.last_seq
                                        THEN u.log_run_start_seq ELSE u.last_seq END,
               log_run_end = u.state_version + 1,
               log_run_seq = u.last_seq + parts.push_count,
               log_allowance = CASE WHEN parts.rate IS NULL THEN u.log_allowance
                                    ELSE laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, parts.rate, parts.burst) - 1 END,
               log_allowance_at = CASE WHEN parts.rate IS NULL THEN u.log_allowance_at ELSE now() END
          FROM parts
         WHERE u.id = parts.user_id AND u.state_version = parts.version AND NOT parts.taken
           AND (parts.rate IS NULL
                OR laurel.log_allowance_now(u.log_allowance, u.log_allowance_at, parts.rate, parts.burst) >= 1)
        RETURNING u.id AS bumped_user, u.state_version AS bumped_version, u.last_seq AS bumped_last_seq
    ), stored AS (
        SELECT parts.*, bumped.bumped_version, bumped.bumped_last_seq
          FROM parts JOIN bumped ON bumped.bumped_user = parts.user_id
    ), logs AS (
        INSERT INTO laurel.logs (user_id, id, activity_id, amount, at, day, note, requested_at, response, local_hour)
        SELECT s.user_id, s.id, s.activity, s.amount, 'epoch'::timestamptz + s.at_us * interval '1 microsecond', s.day,
               s.note, 'epoch'::timestamptz + s.requested_us * interval '1 microsecond', s.response::json, s.local_hour
          FROM stored s
        RETURNING user_id AS logged_user, seq AS logged_seq
    ), unlocks AS (
        INSERT INTO laurel.unlocks (user_id, achievement_id, unlocked_at)
        SELECT s.user_id, unlocked.id, 'epoch'::timestamptz + s.unlocked_us * interval '1 microsecond'
          FROM stored s CROSS JOIN LATERAL unnest(s.unlocks) AS unlocked(id)
    ), pushes AS (
        INSERT INTO laurel.pushes (user_id, seq, kind, data)
        SELECT s.user_id, s.bumped_last_seq - s.push_count + pushed.n, pushed.kind, pushed.data::json
          FROM stored s CROSS JOIN LATERAL unnest(s.push_kinds, s.push_data) WITH ORDINALITY AS pushed(kind, data, n)
    ), figures AS (
        INSERT INTO laurel.progress AS pr
               (user_id, xp, level, max_level, current_streak, longest_streak, shown_streak, streak_holds_through,
                state_version, updated_at)
        SELECT s.user_id, s.xp, s.level, s.max_level, s.current_streak, s.longest_streak, s.shown_streak::json,
               s.streak_holds_through, -1, now()
          FROM stored s
        ON CONFLICT (user_id) DO UPDATE SET xp = EXCLUDED.xp, level = EXCLUDED.level, max_level = EXCLUDED.max_level,
            current_streak = EXCLUDED.current_streak, longest_streak = EXCLUDED.longest_streak,
            shown_streak = EXCLUDED.shown_streak, streak_holds_through = EXCLUDED.streak_holds_through, updated_at = now()
    )
    SELECT CASE WHEN s.user_id IS NOT NULL THEN 'committed'
                WHEN p.taken THEN 'duplicate'
                WHEN known.id IS NOT NULL AND known.state_version = p.version AND p.rate IS NOT NULL
                     AND laurel.log_allowance_now(known.log_allowance, known.log_allowance_at, p.rate, p.burst) < 1
                     THEN 'rate_limited'
                WHEN known.id IS NOT NULL THEN 'stale'
                ELSE 'unknown_user' END,
           s.bumped_version,
           CASE WHEN s.push_count > 0 THEN laurel.announce_pushes(s.user_id, s.bumped_last_seq) ELSE s.bumped_last_seq END,
           logged.logged_seq,
           p.user_id
      FROM parts p
      LEFT JOIN stored s ON s.ordinality = p.ordinality
      LEFT JOIN logs logged ON logged.logged_user = s.user_id
      LEFT JOIN LATERAL (
          SELECT x.id, x.state_version, x.log_allowance, x.log_allowance_at
            FROM laurel.users x WHERE x.id = p.user_id AND s.user_id IS NULL LIMIT 1
      ) AS known ON true
     ORDER BY p.ordinality;
END $$;


-- The overview of migration 0002 with the streak of today and the unlocks that count. A user's "today" is the date
-- now in the zone of the user's latest settings, the zone the stored days were counted in (a zone change is
-- evaluated, and saved, at once).
CREATE OR REPLACE VIEW laurel.user_overview AS
SELECT u.name,
       sub.tier,
       sub.status,
       p.level,
       p.xp,
       CASE WHEN p.streak_holds_through < (now() AT TIME ZONE zone.time_zone)::date THEN 0 ELSE p.current_streak END AS current_streak,
       p.longest_streak,
       (SELECT count(*) FROM laurel.logs l WHERE l.user_id = u.id AND l.deleted_at IS NULL) AS logs,
       -- The catalog's unlocks all count (SQL does not know which catalog the servers run), template unlocks while
       -- their tier is listed: the ids of AchievementTemplate.achievementID.
       (SELECT count(*) FROM laurel.unlocks k
         WHERE k.user_id = u.id
           AND (NOT starts_with(k.achievement_id, 'tpl.')
                OR EXISTS (SELECT 1 FROM laurel.templates t CROSS JOIN LATERAL json_array_elements(t.tiers) AS step(tier_json)
                            WHERE t.user_id = u.id
                              AND k.achievement_id = 'tpl.' || t.id::text || '.' || (step.tier_json->>'target')
                                                     || coalesce('.w' || (step.tier_json->>'window_minutes'), '')))) AS unlocked,
       u.last_seen_at AS last_seen
  FROM laurel.users u
  LEFT JOIN laurel.progress p ON p.user_id = u.id
  LEFT JOIN LATERAL (
      SELECT s.time_zone FROM laurel.settings s WHERE s.user_id = u.id ORDER BY s.id DESC LIMIT 1
  ) AS zone ON true
  CROSS JOIN LATERAL laurel.subscription_at(u.id) sub;
