-- Daily and weekly challenges (rules.md "Challenges"). A period's challenges are chosen the first time something
-- needs them and stored here, one row a slot; the primary key makes the first choice the only one, whichever
-- connection or instance makes it. Progress is not stored: it is counted from the period's live facts whenever it
-- is shown, so it always agrees with them. What is stored is what cannot be recounted: completed_at, set in the
-- transaction of the fact that completed the challenge and never cleared (its XP is then the user's for good).
CREATE TABLE laurel.challenges (
    user_id       bigint      NOT NULL REFERENCES laurel.users (id) ON DELETE CASCADE,
    period        text        NOT NULL CHECK (period IN ('daily', 'weekly')),
    period_start  date        NOT NULL,
    slot          smallint    NOT NULL CHECK (slot >= 0),
    kind          text        NOT NULL,
    title         text        NOT NULL,
    target        integer     NOT NULL CHECK (target > 0),
    xp            integer     NOT NULL CHECK (xp >= 0),
    activity_id   text,
    hour          smallint,
    chosen_at     timestamptz NOT NULL DEFAULT now(),
    completed_at  timestamptz,
    PRIMARY KEY (user_id, period, period_start, slot)
);

-- The XP of a user's completed challenges, for the operators' SQL (the server counts it in the same transaction).
CREATE FUNCTION laurel.challenge_xp(p_user bigint) RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(xp), 0)::integer FROM laurel.challenges WHERE user_id = p_user AND completed_at IS NOT NULL
$$;

-- ACCOUNT.EXPORT includes the challenges: the document of before, with a "challenges" list added.
ALTER FUNCTION laurel.account_document(bigint) RENAME TO account_document_without_challenges;

CREATE FUNCTION laurel.account_document(p_user bigint) RETURNS json
LANGUAGE sql STABLE AS $$
    SELECT (laurel.account_document_without_challenges(p_user)::jsonb || jsonb_build_object(
        'challenges', coalesce((SELECT jsonb_agg(jsonb_build_object(
                          'period', c.period, 'period_start', c.period_start, 'slot', c.slot, 'kind', c.kind, 'title', c.title,
                          'target', c.target, 'xp', c.xp, 'activity', c.activity_id, 'hour', c.hour, 'chosen_at', c.chosen_at,
                          'completed_at', c.completed_at) ORDER BY c.period_start, c.period, c.slot)
                      FROM laurel.challenges c WHERE c.user_id = p_user), '[]'::jsonb)))::json
$$;

-- laurel.user_overview gains how many of the user's challenges of today (the user's local day) are completed.
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
