-- Subscriptions as clients see them: the SUBSCRIPTION document (protocol.md, "Subscription"), the trial, and the
-- SUBSCRIPTION pushes that tell connected clients about a trial, a grant, a revocation or an expiry.
--
-- Every change of a subscription stores its push here, in the transaction that makes the change, so the push
-- exists exactly once however many server instances listen; `pushes_stored` on `laurel_events` then makes every
-- instance deliver it to the user's connections.

-- Whether the end of a period has been told to the user. Set once, by whichever instance notices the end first.
ALTER TABLE laurel.subscriptions ADD COLUMN announced_end boolean NOT NULL DEFAULT false;

-- Periods that ended before this migration are history, not news.
UPDATE laurel.subscriptions SET announced_end = true WHERE ends_at <= now();

-- What the expiry watcher of every instance looks at twice a second: only ends still to be announced.
CREATE INDEX subscriptions_end_to_announce ON laurel.subscriptions (ends_at)
 WHERE NOT announced_end AND revoked_at IS NULL AND ends_at IS NOT NULL;

-- A timestamp as the protocol writes it: UTC with `Z`, rounded to the millisecond, with a fraction only when it
-- is not zero (`2026-11-20T08:15:00Z`, `2026-11-20T08:15:00.250Z`).
CREATE FUNCTION laurel.rfc3339(p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT to_char(utc, CASE WHEN utc = date_trunc('second', utc) THEN 'YYYY-MM-DD"T"HH24:MI:SS"Z"'
                             ELSE 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' END)
      FROM (SELECT date_trunc('milliseconds', (p_at AT TIME ZONE 'UTC') + interval '0.5 milliseconds') AS utc) rounded;
$$;

-- The SUBSCRIPTION object of a user now (NULL for an unknown user). `trial_ends_at` is there while the trial is
-- what gives premium, `expires_at` while a grant with an end does. Entitlements describe what the user may
-- change: lapsed users keep their templates, which keep being evaluated, but may not change them. The template
-- limit is the per-user limit of rules.md ("Limits and validation").
CREATE FUNCTION laurel.subscription_document(p_user bigint) RETURNS json
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
                   'template_limit', CASE WHEN state.tier = 'premium' THEN 100 ELSE 0 END)))
      FROM state;
$$;

-- Stores a SUBSCRIPTION push with the user's document now and tells every instance about it (on commit).
-- Takes the user's row lock, like every writer of the user's pushes. Returns the push's seq, NULL for an
-- unknown user.
CREATE FUNCTION laurel.store_subscription_push(p_user bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    next_seq bigint;
BEGIN
    UPDATE laurel.users SET last_seq = last_seq + 1 WHERE id = p_user RETURNING last_seq INTO next_seq;
    IF next_seq IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.pushes (user_id, seq, kind, data)
    VALUES (p_user, next_seq, 'SUBSCRIPTION', laurel.subscription_document(p_user));
    PERFORM pg_notify('laurel_events',
                      json_build_object('event', 'pushes_stored', 'user_id', p_user, 'seq', next_seq)::text);
    RETURN next_seq;
END $$;

-- TRIAL.START: premium for 14 days, once per user ever. Returns the seq of the SUBSCRIPTION push, or NULL when
-- the user's trial was used before (and then nothing changes).
CREATE FUNCTION laurel.start_trial(p_user bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE laurel.users SET trial_used = true WHERE id = p_user AND NOT trial_used;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at)
    VALUES (p_user, 'trial', now(), now() + interval '14 days');
    RETURN laurel.store_subscription_push(p_user);
END $$;

-- Premium granted for `period` from now, or without end when period is NULL; the user hears of it at once.
CREATE OR REPLACE FUNCTION laurel.grant_premium(name text, period interval DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    IF period IS NOT NULL AND period <= interval '0' THEN
        RAISE EXCEPTION 'the period must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at) VALUES (target, 'grant', now(), now() + period);
    PERFORM laurel.store_subscription_push(target);
END $$;

-- Ends every running period of the user (grants and a running trial); the user hears of it when there was one.
CREATE OR REPLACE FUNCTION laurel.revoke_premium(name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    UPDATE laurel.subscriptions SET revoked_at = now()
     WHERE user_id = target AND revoked_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now());
    IF FOUND THEN
        PERFORM laurel.store_subscription_push(target);
    END IF;
END $$;

-- Announces the periods that have ended: each is marked once (rows another caller holds are skipped, so
-- concurrent callers on several instances never take the same one), and each user concerned gets a SUBSCRIPTION
-- push when the document now differs from the last one the user was sent. A period ending under another that
-- keeps the document as it was (a longer grant, a grant without end) tells nothing new and stores nothing.
-- Returns the number of pushes stored. Up to 1000 periods a call; the rest wait for the next call.
CREATE FUNCTION laurel.announce_expired_subscriptions() RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    concerned bigint[];
    ended_user bigint;
    stored integer := 0;
BEGIN
    WITH due AS (
        SELECT s.id FROM laurel.subscriptions s
         WHERE NOT s.announced_end AND s.revoked_at IS NULL AND s.ends_at IS NOT NULL AND s.ends_at <= now()
         ORDER BY s.ends_at, s.id
         LIMIT 1000
           FOR UPDATE SKIP LOCKED
    ), marked AS (
        UPDATE laurel.subscriptions s SET announced_end = true FROM due WHERE s.id = due.id RETURNING s.user_id
    )
    SELECT array_agg(DISTINCT marked.user_id ORDER BY marked.user_id) INTO concerned FROM marked;

    -- Users in id order, so two callers that share users lock them in the same order.
    FOREACH ended_user IN ARRAY coalesce(concerned, '{}') LOOP
        PERFORM 1 FROM laurel.users WHERE id = ended_user FOR UPDATE;
        -- A new statement, so it sees whatever pushes were committed while waiting for the lock.
        IF laurel.subscription_document(ended_user)::jsonb IS DISTINCT FROM (
               SELECT p.data::jsonb FROM laurel.pushes p
                WHERE p.user_id = ended_user AND p.kind = 'SUBSCRIPTION'
                ORDER BY p.seq DESC LIMIT 1) THEN
            IF laurel.store_subscription_push(ended_user) IS NOT NULL THEN
                stored := stored + 1;
            END IF;
        END IF;
    END LOOP;
    RETURN stored;
END $$;
