-- The SUBSCRIPTION object of a user now (protocol.md, "Subscription"; NULL for an unknown user). `trial_ends_at`
-- is there while the trial is what gives premium, `expires_at` while a grant with an end does. Lapsed users keep
-- their templates, which keep being evaluated, but may not change them.
CREATE OR REPLACE FUNCTION laurel.subscription_document(p_user bigint) RETURNS json
LANGUAGE sql STABLE AS $$
    WITH running AS (
        SELECT s.kind, s.ends_at FROM laurel.subscriptions s
         WHERE s.user_id = p_user AND s.revoked_at IS NULL AND s.starts_at <= now()
           AND (s.ends_at IS NULL OR s.ends_at > now())
    ), state AS (
        SELECT sub.tier, sub.status, NOT u.trial_used AS trial_available,
               (SELECT max(r.ends_at) FROM running r WHERE r.kind = 'trial') AS trial_ends_at,
               CASE WHEN EXISTS (SELECT 1 FROM running r WHERE r.kind = 'grant' AND r.ends_at IS NULL) THEN NULL
                    ELSE (SELECT max(r.ends_at) FROM running r WHERE r.kind = 'grant') END AS grant_ends_at
          FROM laurel.users u CROSS JOIN LATERAL laurel.subscription_at(u.id) sub
         WHERE u.id = p_user
    )
    -- Absent optional fields are NULL here and stripped; no other field is ever NULL.
    SELECT json_strip_nulls(json_build_object(
               'tier', state.tier,
               'status', state.status,
               'trial_available', state.trial_available,
               'trial_ends_at', CASE WHEN state.status = 'trial' THEN laurel.rfc3339(state.trial_ends_at) END,
               'expires_at', CASE WHEN state.status = 'active' THEN laurel.rfc3339(state.grant_ends_at) END,
               'entitlements', json_build_object(
                   'templates', state.tier = 'premium',
                   'template_limit', CASE WHEN state.tier = 'premium' THEN laurel.template_limit() ELSE 0 END)))
      FROM state;
$$;
