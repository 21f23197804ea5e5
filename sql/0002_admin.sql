-- The operators' SQL API (protocol.md, "Admin API"). Changes that concern connected clients are announced on the
-- notification channel `laurel_events` as JSON {"event": ..., "user_id": ...}; every server instance LISTENs on
-- it and reaches the user's connections within a second.

CREATE FUNCTION laurel.user_id_of(p_name text) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    found_id bigint;
BEGIN
    SELECT id INTO found_id FROM laurel.users WHERE lower(name) = lower(btrim(p_name));
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'no user named "%"', p_name USING ERRCODE = 'no_data_found';
    END IF;
    RETURN found_id;
END $$;

CREATE FUNCTION laurel.announce(p_event text, p_user bigint) RETURNS void
LANGUAGE sql AS $$
    SELECT pg_notify('laurel_events', json_build_object('event', p_event, 'user_id', p_user)::text);
$$;

-- A token: 'lt_' and 64 hex digits made of two random UUIDs (244 random bits). Only its SHA-256 digest is stored.
CREATE FUNCTION laurel.new_token(p_user bigint) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
    token text := 'lt_' || encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'hex');
BEGIN
    INSERT INTO laurel.tokens (digest, user_id) VALUES (sha256(convert_to(token, 'UTF8')), p_user);
    RETURN token;
END $$;

CREATE FUNCTION laurel.create_user(name text, time_zone text DEFAULT 'UTC')
RETURNS TABLE (user_id bigint, token text)
LANGUAGE plpgsql AS $$
DECLARE
    new_id bigint;
    local_day date;
BEGIN
    IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 64 OR name ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a user name is 1 to 64 characters without control characters' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_timezone_names WHERE pg_timezone_names.name = create_user.time_zone) THEN
        RAISE EXCEPTION 'unknown time zone "%"', time_zone USING ERRCODE = 'invalid_parameter_value';
    END IF;
    local_day := (now() AT TIME ZONE create_user.time_zone)::date;
    INSERT INTO laurel.users (name) VALUES (btrim(create_user.name)) RETURNING id INTO new_id;
    INSERT INTO laurel.settings (user_id, effective_day, time_zone) VALUES (new_id, local_day, create_user.time_zone);
    INSERT INTO laurel.progress (user_id) VALUES (new_id);
    user_id := new_id;
    token := laurel.new_token(new_id);
    RETURN NEXT;
END $$;

CREATE FUNCTION laurel.issue_token(name text) RETURNS text
LANGUAGE sql AS $$
    SELECT laurel.new_token(laurel.user_id_of(name));
$$;

CREATE FUNCTION laurel.revoke_tokens(name text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
    revoked integer;
BEGIN
    UPDATE laurel.tokens SET revoked_at = now() WHERE user_id = target AND revoked_at IS NULL;
    GET DIAGNOSTICS revoked = ROW_COUNT;
    PERFORM laurel.announce('tokens_revoked', target);
    RETURN revoked;
END $$;

-- Premium granted for `period` from now, or without end when period is NULL.
CREATE FUNCTION laurel.grant_premium(name text, period interval DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    IF period IS NOT NULL AND period <= interval '0' THEN
        RAISE EXCEPTION 'the period must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at) VALUES (target, 'grant', now(), now() + period);
    PERFORM laurel.announce('subscription_changed', target);
END $$;

CREATE FUNCTION laurel.revoke_premium(name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    UPDATE laurel.subscriptions SET revoked_at = now()
     WHERE user_id = target AND revoked_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now());
    PERFORM laurel.announce('subscription_changed', target);
END $$;

CREATE FUNCTION laurel.delete_user(name text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    DELETE FROM laurel.users WHERE id = target;
    PERFORM laurel.announce('user_deleted', target);
END $$;

-- The subscription of a user at a moment, by the rules of rules.md: premium while a trial or an unrevoked grant
-- covers the moment (a grant wins over a trial), lapsed once any period has ended, free otherwise.
CREATE FUNCTION laurel.subscription_at(p_user bigint, p_at timestamptz DEFAULT now())
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

CREATE VIEW laurel.user_overview AS
SELECT u.name,
       sub.tier,
       sub.status,
       p.level,
       p.xp,
       p.current_streak,
       p.longest_streak,
       (SELECT count(*) FROM laurel.logs l WHERE l.user_id = u.id AND l.deleted_at IS NULL) AS logs,
       (SELECT count(*) FROM laurel.unlocks k WHERE k.user_id = u.id) AS unlocked,
       u.last_seen_at AS last_seen
  FROM laurel.users u
  LEFT JOIN laurel.progress p ON p.user_id = u.id
  CROSS JOIN LATERAL laurel.subscription_at(u.id) sub;
