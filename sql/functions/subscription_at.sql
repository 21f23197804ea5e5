-- The subscription of a user at a moment (rules.md, "Subscriptions and entitlements"): premium while a trial or an
-- unrevoked grant covers the moment (a grant wins over a trial), lapsed once any period has ended, free otherwise.
-- The one place this rule lives: the server reads it with the user's progress, the operators' functions with the
-- SUBSCRIPTION documents they store.
CREATE OR REPLACE FUNCTION laurel.subscription_at(p_user bigint, p_at timestamptz DEFAULT now())
RETURNS TABLE (tier text, status text, ends_at timestamptz)
LANGUAGE sql STABLE AS $$
    WITH running AS (
        SELECT s.kind, s.ends_at FROM laurel.subscriptions s
         WHERE s.user_id = p_user AND s.revoked_at IS NULL AND s.starts_at <= p_at
           AND (s.ends_at IS NULL OR s.ends_at > p_at)
    )
    SELECT CASE WHEN EXISTS (SELECT 1 FROM running) THEN 'premium' ELSE 'free' END,
           CASE WHEN EXISTS (SELECT 1 FROM running WHERE kind = 'grant') THEN 'active'
                WHEN EXISTS (SELECT 1 FROM running) THEN 'trial'
                WHEN EXISTS (SELECT 1 FROM laurel.subscriptions s WHERE s.user_id = p_user) THEN 'lapsed'
                ELSE 'free' END,
           CASE WHEN EXISTS (SELECT 1 FROM running WHERE kind = 'grant' AND running.ends_at IS NULL) THEN NULL
                ELSE (SELECT max(running.ends_at) FROM running) END;
$$;
