-- The schema `laurel` as a freshly migrated database has it (pg_dump --schema-only), written by
-- scripts/schema-dump and checked by a test: read it, do not edit it (tables change in sql/migrations, functions
-- and views in their files under sql/functions and sql/views).

CREATE SCHEMA laurel;

CREATE TYPE laurel.commit_part AS (
	n integer,
	user_id bigint,
	version bigint,
	reloads boolean,
	rebuilt boolean,
	fact_kind text,
	fact_id text,
	activity text,
	amount integer,
	lesson text,
	category text,
	event text,
	at_us bigint,
	day date,
	local_hour smallint,
	note text,
	requested_us bigint,
	response text,
	deleted_log text,
	settings_zone text,
	settings_rest smallint,
	settings_vacation boolean,
	settings_goal smallint,
	settings_window smallint,
	settings_leaderboards boolean,
	settings_day date,
	window_minutes smallint,
	answered boolean,
	custom_activity json,
	templates json,
	deleted_templates uuid[],
	deleted_unlock_prefixes text[],
	installed_listing uuid,
	unlocks text[],
	decided_us bigint,
	completed json,
	push_kinds text[],
	push_data json[],
	has_figures boolean,
	xp bigint,
	level integer,
	max_level integer,
	current_streak integer,
	longest_streak integer,
	streak_freezes smallint,
	streak_at_risk boolean,
	last_active_day date,
	streak_holds_through date,
	challenge_xp integer,
	unlocked integer,
	total_logs integer,
	active_days integer,
	goal_met_week date,
	allowance double precision,
	allowance_us bigint,
	snapshot text,
	scores json,
	latest_score_day date,
	latest_scores text,
	announce text,
	chosen_period text[],
	chosen_start date[],
	chosen_slot smallint[],
	chosen_kind text[],
	chosen_title text[],
	chosen_target integer[],
	chosen_xp integer[],
	chosen_activity text[],
	chosen_hour smallint[],
	chosen_completed boolean[]
);

CREATE DOMAIN laurel.fact_id AS text
	CONSTRAINT fact_id_check CHECK (((length(VALUE) >= 1) AND (length(VALUE) <= 128)));

CREATE DOMAIN laurel.local_hour AS smallint
	CONSTRAINT local_hour_check CHECK (((VALUE >= 0) AND (VALUE <= 23)));

CREATE DOMAIN laurel.log_amount AS integer
	CONSTRAINT log_amount_check CHECK (((VALUE >= 1) AND (VALUE <= 100000)));

CREATE FUNCTION laurel.accept_invite(p_user bigint, p_code text, p_inviter bigint, p_now timestamp with time zone, p_max_friends integer, p_push_to_user json, p_push_to_inviter json) RETURNS TABLE(outcome text, user_seq bigint, inviter_seq bigint)
    LANGUAGE plpgsql
    AS $$
DECLARE
    open_inviter bigint;
    locked integer;
    user_version bigint;
    inviter_version bigint;
BEGIN
    IF p_inviter = p_user THEN
        RETURN QUERY SELECT 'own_code', NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    WITH held AS (SELECT g.user_id FROM laurel.progress g WHERE g.user_id IN (p_user, p_inviter) ORDER BY g.user_id FOR UPDATE)
    SELECT count(*) INTO locked FROM held;
    IF locked < 2 THEN
        RETURN QUERY SELECT 'not_found', NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    SELECT i.inviter_id INTO open_inviter FROM laurel.invites i
     WHERE i.code = p_code AND i.accepted_by IS NULL AND i.expires_at > p_now
       FOR UPDATE;
    IF open_inviter IS NULL OR open_inviter <> p_inviter THEN
        RETURN QUERY SELECT 'not_found', NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF EXISTS (SELECT 1 FROM laurel.friendships f WHERE f.user_id = p_user AND f.friend_id = p_inviter) THEN
        RETURN QUERY SELECT 'already_friends', NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    IF (SELECT count(*) FROM laurel.friendships f WHERE f.user_id = p_user) >= p_max_friends
       OR (SELECT count(*) FROM laurel.friendships f WHERE f.user_id = p_inviter) >= p_max_friends THEN
        RETURN QUERY SELECT 'too_large', NULL::bigint, NULL::bigint;
        RETURN;
    END IF;
    UPDATE laurel.invites SET accepted_by = p_user, accepted_at = p_now WHERE code = p_code;
    INSERT INTO laurel.friendships (user_id, friend_id, since) VALUES (p_user, p_inviter, p_now), (p_inviter, p_user, p_now);
    UPDATE laurel.progress g SET last_seq = g.last_seq + 1, version = g.version + 1, updated_at = now()
     WHERE g.user_id = p_user RETURNING g.last_seq, g.version INTO user_seq, user_version;
    UPDATE laurel.progress g SET last_seq = g.last_seq + 1, version = g.version + 1, updated_at = now()
     WHERE g.user_id = p_inviter RETURNING g.last_seq, g.version INTO inviter_seq, inviter_version;
    INSERT INTO laurel.pushes (user_id, seq, kind, data, created_at)
    VALUES (p_user, user_seq, 'FRIEND', p_push_to_user, p_now), (p_inviter, inviter_seq, 'FRIEND', p_push_to_inviter, p_now);
    PERFORM laurel.announce_commits(ARRAY[laurel.announced_commit(p_user, user_version, user_seq, NULL, NULL),
                                          laurel.announced_commit(p_inviter, inviter_version, inviter_seq, NULL, NULL)]);
    RETURN QUERY SELECT 'accepted', user_seq, inviter_seq;
END $$;

CREATE FUNCTION laurel.account_document(p_user bigint) RETURNS json
    LANGUAGE sql STABLE
    AS $$
    SELECT json_build_object(
        'user', (SELECT json_build_object('id', u.id::text, 'name', u.name, 'created_at', u.created_at, 'last_seen_at', u.last_seen_at,
                                          'trial_used', u.trial_used) FROM laurel.users u WHERE u.id = p_user),
        'settings', coalesce((SELECT json_agg(json_build_object('changed_at', s.changed_at, 'effective_day', s.effective_day,
                     'time_zone', s.time_zone, 'rest_day', s.rest_day, 'vacation', s.vacation, 'weekly_goal', s.weekly_goal,
                     'reminder_window_minutes', s.reminder_window_minutes,
                     'leaderboards', s.leaderboards) ORDER BY s.id)
                     FROM laurel.settings s WHERE s.user_id = p_user), '[]'),
        'subscriptions', coalesce((SELECT json_agg(json_build_object('kind', s.kind, 'starts_at', s.starts_at, 'ends_at', s.ends_at,
                     'revoked_at', s.revoked_at) ORDER BY s.id) FROM laurel.subscriptions s WHERE s.user_id = p_user), '[]'),
        'activities', coalesce((SELECT json_agg(json_build_object('id', a.id, 'name', a.name, 'unit', a.unit, 'icon', a.icon,
                     'created_at', a.created_at, 'deleted_at', a.deleted_at) ORDER BY a.created_at)
                     FROM laurel.custom_activities a WHERE a.user_id = p_user), '[]'),
        'logs', coalesce((SELECT json_agg(json_build_object('id', l.id, 'activity', l.activity_id, 'amount', l.amount, 'at', l.at,
                     'day', l.day, 'note', l.note, 'deleted_at', l.deleted_at) ORDER BY l.at, l.seq)
                     FROM laurel.logs l WHERE l.user_id = p_user), '[]'),
        'lessons', coalesce((SELECT json_agg(json_build_object('id', c.id, 'lesson', c.lesson_id, 'at', c.at, 'day', c.day) ORDER BY c.at, c.seq)
                     FROM laurel.lesson_completions c WHERE c.user_id = p_user), '[]'),
        'events', coalesce((SELECT json_agg(json_build_object('id', e.id, 'name', e.name, 'at', e.at) ORDER BY e.at, e.seq)
                     FROM laurel.reported_events e WHERE e.user_id = p_user), '[]'),
        'listings', coalesce((SELECT json_agg(json_build_object('listing_id', l.id, 'template_id', l.template_id, 'name', l.name,
                     'type', l.type, 'tiers', l.tiers, 'activity_name', l.activity_name, 'description', l.description,
                     'installs', l.installs, 'published_at', l.published_at, 'updated_at', l.updated_at) ORDER BY l.published_at, l.id)
                     FROM laurel.listings l WHERE l.author_id = p_user), '[]'),
        'friends', coalesce((SELECT json_agg(json_build_object('user_id', f.friend_id::text, 'since', f.since) ORDER BY f.since, f.friend_id)
                     FROM laurel.friendships f WHERE f.user_id = p_user), '[]'),
        'invites', coalesce((SELECT json_agg(json_build_object('code', i.code, 'created_at', i.created_at, 'expires_at', i.expires_at,
                     'accepted_at', i.accepted_at) ORDER BY i.created_at, i.code)
                     FROM laurel.invites i WHERE i.inviter_id = p_user), '[]'),
        'reminders', coalesce((SELECT json_agg(json_build_object('id', r.id, 'at', r.at, 'day', r.day, 'window_minutes', r.window_minutes)
                     ORDER BY r.at, r.seq) FROM laurel.reminders r WHERE r.user_id = p_user), '[]'),
        'templates', coalesce((SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'activity', t.activity_id, 'type', t.type,
                     'tiers', t.tiers, 'active', t.active, 'inactive_reason', t.inactive_reason, 'created_at', t.created_at,
                     'updated_at', t.updated_at) ORDER BY t.created_at, t.id) FROM laurel.templates t WHERE t.user_id = p_user), '[]'),
        'unlocks', coalesce((SELECT json_agg(json_build_object('achievement', k.achievement_id, 'unlocked_at', k.unlocked_at)
                     ORDER BY k.unlocked_at, k.achievement_id) FROM laurel.unlocks k WHERE k.user_id = p_user), '[]'),
        'notifications', coalesce((SELECT json_agg(json_build_object('seq', p.seq, 'kind', p.kind, 'at', p.created_at, 'data', p.data)
                     ORDER BY p.seq) FROM laurel.pushes p WHERE p.user_id = p_user), '[]'),
        'progress', (SELECT json_build_object('xp', p.xp, 'level', p.level, 'highest_level', p.max_level,
                     'current_streak', p.current_streak, 'longest_streak', p.longest_streak, 'challenge_xp', p.challenge_xp)
                     FROM laurel.progress p WHERE p.user_id = p_user),
        'challenges', coalesce((SELECT json_agg(json_build_object(
                     'period', c.period, 'period_start', c.period_start, 'slot', c.slot, 'kind', c.kind, 'title', c.title,
                     'target', c.target, 'xp', c.xp, 'activity', c.activity_id, 'hour', c.hour, 'chosen_at', c.chosen_at,
                     'completed_at', c.completed_at) ORDER BY c.period_start, c.period, c.slot)
                     FROM laurel.challenges c WHERE c.user_id = p_user), '[]')
    );
$$;

CREATE FUNCTION laurel.achievement_rarity() RETURNS TABLE(achievement_id text, rarity numeric)
    LANGUAGE sql STABLE
    AS $$
    WITH active AS (
        SELECT l.user_id FROM laurel.logs l WHERE l.deleted_at IS NULL AND l.at > now() - interval '30 days'
        UNION
        SELECT c.user_id FROM laurel.lesson_completions c WHERE c.at > now() - interval '30 days'
    ), total AS (
        SELECT count(*) AS users FROM active
    )
    SELECT a.id, CASE WHEN total.users = 0 THEN 0
                      ELSE round(count(u.user_id)::numeric / total.users, 3) END
      FROM laurel.achievements a
     CROSS JOIN total
      LEFT JOIN laurel.unlocks u ON u.achievement_id = a.id AND u.user_id IN (SELECT user_id FROM active)
     GROUP BY a.id, total.users
$$;

CREATE FUNCTION laurel.announce(p_event text, p_user bigint) RETURNS void
    LANGUAGE sql
    AS $$
    SELECT pg_notify('laurel_events', json_build_object('event', p_event, 'user_id', p_user)::text);
$$;

CREATE FUNCTION laurel.announce_commits(commits text[], event text DEFAULT 'committed'::text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    whole text := '[' || array_to_string(commits, ',') || ']';
    element text;
    parsed json;
    chunk text := '';
    head text := '{"event":"' || event || '","at_us":' || (extract(epoch FROM now()) * 1000000)::bigint || ',"users":';
BEGIN
    IF coalesce(array_length(commits, 1), 0) = 0 THEN
        RETURN;
    END IF;
    -- Nearly always one notification (a batch of LOGs without changes is some 30 bytes a user).
    IF octet_length(whole) <= 7900 THEN
        PERFORM pg_notify('laurel_events', head || whole || '}');
        RETURN;
    END IF;
    FOREACH element IN ARRAY commits LOOP
        IF octet_length(element) > 7900 THEN
            parsed := element::json;
            element := json_build_array(parsed -> 0, parsed -> 1, parsed -> 2)::text;
        END IF;
        IF chunk <> '' AND octet_length(chunk) + octet_length(element) > 7900 THEN
            PERFORM pg_notify('laurel_events', head || '[' || chunk || ']}');
            chunk := '';
        END IF;
        chunk := CASE WHEN chunk = '' THEN element ELSE chunk || ',' || element END;
    END LOOP;
    PERFORM pg_notify('laurel_events', head || '[' || chunk || ']}');
END $$;

CREATE FUNCTION laurel.announce_expired_subscriptions() RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    concerned bigint[];
    ended_user bigint;
    stored integer := 0;
BEGIN
    WITH due AS (
        SELECT s.user_id, s.id FROM laurel.subscriptions s
         WHERE NOT s.announced_end AND s.revoked_at IS NULL AND s.ends_at IS NOT NULL AND s.ends_at <= now()
         ORDER BY s.ends_at, s.id
         LIMIT 1000
           FOR UPDATE SKIP LOCKED
    ), marked AS (
        UPDATE laurel.subscriptions s SET announced_end = true FROM due WHERE s.user_id = due.user_id AND s.id = due.id
        RETURNING s.user_id
    )
    SELECT array_agg(DISTINCT marked.user_id ORDER BY marked.user_id) INTO concerned FROM marked;

    -- Users in id order, so two callers that share users lock them in the same order.
    FOREACH ended_user IN ARRAY coalesce(concerned, '{}') LOOP
        PERFORM 1 FROM laurel.progress WHERE user_id = ended_user FOR UPDATE;
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

CREATE FUNCTION laurel.announced_commit(user_id bigint, version bigint, last_seq bigint, fact_seq bigint, change text) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    SELECT CASE WHEN change IS NULL THEN '[' || user_id || ',' || version || ',' || last_seq || ']'
                ELSE '[' || user_id || ',' || version || ',' || last_seq || ',' || coalesce(fact_seq::text, 'null') || ',' || change || ']'
           END
$$;

CREATE FUNCTION laurel.changes_since(p_user bigint, p_version bigint, p_after_log bigint, p_after_lesson bigint, p_after_event bigint, p_periods jsonb) RETURNS TABLE(version bigint, last_seq bigint, addable boolean, xp bigint, level integer, max_level integer, current_streak integer, longest_streak integer, streak_freezes smallint, streak_at_risk boolean, last_active_day text, streak_holds_through text, challenge_xp integer, unlocked integer, total_logs integer, active_days integer, goal_met_week text, log_allowance double precision, log_allowance_us bigint, unlocks text, challenges text, kind text, seq bigint, id text, activity_id text, amount integer, at_us bigint, day text, local_hour smallint, lesson_id text, category text, latest_score_day text, latest_scores text)
    LANGUAGE plpgsql STABLE
    SET enable_seqscan TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
#variable_conflict use_column
BEGIN
    RETURN QUERY
    WITH facts AS (
        SELECT 'log'::text AS kind, l.seq, l.id, l.activity_id, l.amount, l.at, l.day, l.local_hour,
               NULL::text AS lesson_id, NULL::text AS category
          FROM laurel.logs l WHERE l.user_id = p_user AND l.deleted_at IS NULL AND l.seq > p_after_log
        UNION ALL
        SELECT 'lesson', c.seq, c.id, NULL, 0, c.at, c.day, NULL, c.lesson_id, c.category
          FROM laurel.lesson_completions c WHERE c.user_id = p_user AND c.seq > p_after_lesson
        UNION ALL
        SELECT 'event', e.seq, e.id, NULL, 0, e.at, e.day, NULL, e.name, NULL
          FROM laurel.reported_events e WHERE e.user_id = p_user AND e.seq > p_after_event
    )
    SELECT g.version, g.last_seq, g.reload_version <= p_version, g.xp, g.level, g.max_level, g.current_streak,
           g.longest_streak, g.streak_freezes, g.streak_at_risk, to_char(g.last_active_day, 'YYYY-MM-DD'),
           to_char(g.streak_holds_through, 'YYYY-MM-DD'), g.challenge_xp, g.unlocked, g.total_logs, g.active_days,
           to_char(g.goal_met_week, 'YYYY-MM-DD'), g.log_allowance, (extract(epoch FROM g.log_allowance_at) * 1000000)::bigint,
           (SELECT coalesce(json_object_agg(k.achievement_id, (extract(epoch FROM k.unlocked_at) * 1000000)::bigint), '{}')
              FROM laurel.unlocks k WHERE k.user_id = p_user)::text,
           (SELECT coalesce(json_agg(json_build_object(
                       'period', c.period, 'start', to_char(c.period_start, 'YYYY-MM-DD'), 'slot', c.slot, 'kind', c.kind,
                       'title', c.title, 'target', c.target, 'xp', c.xp, 'activity_id', c.activity_id, 'hour', c.hour,
                       'completed_us', (extract(epoch FROM c.completed_at) * 1000000)::bigint)), '[]')
              FROM jsonb_to_recordset(p_periods) AS held(period text, start date)
              JOIN laurel.challenges c ON c.user_id = p_user AND c.period = held.period AND c.period_start = held.start)::text,
           f.kind, f.seq, f.id, f.activity_id, f.amount, (extract(epoch FROM f.at) * 1000000)::bigint,
           to_char(f.day, 'YYYY-MM-DD'), f.local_hour, f.lesson_id, f.category,
           to_char(g.latest_score_day, 'YYYY-MM-DD'), g.latest_scores::text
      FROM laurel.progress g
      LEFT JOIN facts f ON g.reload_version <= p_version
     WHERE g.user_id = p_user;
END $$;

CREATE FUNCTION laurel.commit_changes(batch laurel.commit_part[], isolated boolean DEFAULT false) RETURNS TABLE(outcome text, new_version bigint, new_last_seq bigint, fact_seq bigint, committed_us bigint, detail text)
    LANGUAGE plpgsql
    AS $$
DECLARE
    part laurel.commit_part;
    part_user bigint;
    announced text;
    -- [user_id, version, last_seq] of each committed part ([user_id, version, last_seq, fact_seq, change] when the
    -- part announces its change).
    commits text[] := '{}';
    instance text := nullif(current_setting('laurel.instance', true), '');
    announcing boolean := true;
    -- The registry's lock (7416, 1), taken in an assignment: plpgsql evaluates one without a query of its own.
    registry_locked text;
BEGIN
    committed_us := (extract(epoch FROM now()) * 1000000)::bigint;
    detail := NULL;
    IF instance IS NOT NULL THEN
        registry_locked := pg_advisory_xact_lock_shared(7416, 1)::text;
        announcing := EXISTS (SELECT FROM laurel.instances i WHERE i.id <> instance);
    END IF;
    IF NOT isolated THEN
        FOR outcome, new_version, new_last_seq, fact_seq, part_user, announced IN SELECT * FROM laurel.store_changes(batch) LOOP
            IF outcome = 'committed' AND announcing THEN
                commits := commits || laurel.announced_commit(part_user, new_version, new_last_seq, fact_seq, announced);
            END IF;
            RETURN NEXT;
        END LOOP;
    ELSE
        FOREACH part IN ARRAY batch LOOP
            detail := NULL;
            BEGIN
                SELECT s.outcome, s.new_version, s.new_last_seq, s.fact_seq, s.part_user, s.announced
                  INTO outcome, new_version, new_last_seq, fact_seq, part_user, announced
                  FROM laurel.store_changes(ARRAY[part]) s;
            EXCEPTION
                WHEN unique_violation THEN
                    outcome := 'stale';
                    detail := SQLERRM;
                WHEN OTHERS THEN
                    outcome := 'failed';
                    detail := SQLSTATE || ': ' || SQLERRM;
            END;
            IF outcome = 'committed' THEN
                IF announcing THEN
                    commits := commits || laurel.announced_commit(part_user, new_version, new_last_seq, fact_seq, announced);
                END IF;
            ELSE
                new_version := NULL;
                new_last_seq := NULL;
                fact_seq := NULL;
            END IF;
            RETURN NEXT;
        END LOOP;
    END IF;
    IF announcing THEN
        PERFORM laurel.announce_commits(commits, 'written');
    END IF;
END $$;

CREATE FUNCTION laurel.create_invite(p_user bigint, p_code text, p_now timestamp with time zone, p_expires_at timestamp with time zone, p_max_open integer) RETURNS text
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM 1 FROM laurel.progress WHERE user_id = p_user FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'unknown user %', p_user USING ERRCODE = 'no_data_found';
    END IF;
    IF (SELECT count(*) FROM laurel.invites
         WHERE inviter_id = p_user AND accepted_by IS NULL AND expires_at > p_now) >= p_max_open THEN
        RETURN 'too_large';
    END IF;
    INSERT INTO laurel.invites (code, inviter_id, created_at, expires_at)
    VALUES (p_code, p_user, p_now, p_expires_at)
    ON CONFLICT (code) DO NOTHING;
    RETURN CASE WHEN FOUND THEN 'created' ELSE 'taken' END;
END $$;

CREATE FUNCTION laurel.create_user(name text, time_zone text DEFAULT 'UTC'::text) RETURNS TABLE(user_id bigint, token text)
    LANGUAGE plpgsql
    AS $$
DECLARE
    new_id bigint;
BEGIN
    IF name IS NULL OR length(btrim(name)) NOT BETWEEN 1 AND 64 OR name ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION 'a user name is 1 to 64 characters without control characters' USING ERRCODE = 'check_violation';
    END IF;
    IF NOT laurel.is_time_zone(create_user.time_zone) THEN
        RAISE EXCEPTION 'unknown time zone "%"', time_zone USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.user_names (name_key) VALUES (lower(btrim(create_user.name) COLLATE "und-x-icu"));
    INSERT INTO laurel.users (name) VALUES (btrim(create_user.name)) RETURNING id INTO new_id;
    INSERT INTO laurel.settings (user_id, effective_day, time_zone)
    VALUES (new_id, (now() AT TIME ZONE create_user.time_zone)::date, create_user.time_zone);
    INSERT INTO laurel.progress (user_id) VALUES (new_id);
    user_id := new_id;
    token := laurel.new_token(new_id);
    RETURN NEXT;
END $$;

CREATE FUNCTION laurel.delete_user(name text) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    PERFORM laurel.delete_user_by_id(laurel.user_id_of(name));
END $$;

CREATE FUNCTION laurel.delete_user_by_id(p_user bigint) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM laurel.progress WHERE user_id = p_user;
    DELETE FROM laurel.logs WHERE user_id = p_user;
    DELETE FROM laurel.lesson_completions WHERE user_id = p_user;
    DELETE FROM laurel.reported_events WHERE user_id = p_user;
    DELETE FROM laurel.reminders WHERE user_id = p_user;
    DELETE FROM laurel.unlocks WHERE user_id = p_user;
    DELETE FROM laurel.pushes WHERE user_id = p_user;
    DELETE FROM laurel.challenges WHERE user_id = p_user;
    DELETE FROM laurel.listings WHERE author_id = p_user;
    -- The friends' sides, by their keys (a friendship is stored on both sides).
    DELETE FROM laurel.friendships
     WHERE (user_id, friend_id) IN (SELECT f.friend_id, f.user_id FROM laurel.friendships f WHERE f.user_id = p_user);
    DELETE FROM laurel.earlier_day_scores WHERE user_id = p_user;
    DELETE FROM laurel.leaderboard_opt_outs WHERE user_id = p_user;
    DELETE FROM laurel.week_ranks WHERE user_id = p_user;
    DELETE FROM laurel.invites WHERE inviter_id = p_user OR accepted_by = p_user;
    DELETE FROM laurel.user_names WHERE name_key = (SELECT lower(u.name COLLATE "und-x-icu") FROM laurel.users u WHERE u.id = p_user);
    DELETE FROM laurel.users WHERE id = p_user;
    PERFORM laurel.announce('user_deleted', p_user);
END $$;

CREATE FUNCTION laurel.fact_id_taken(kind text, user_id bigint, id text) RETURNS boolean
    LANGUAGE plpgsql STABLE
    AS $$
BEGIN
    RETURN CASE kind
        WHEN 'log' THEN EXISTS (SELECT FROM laurel.logs l WHERE l.user_id = fact_id_taken.user_id AND l.id = fact_id_taken.id)
        WHEN 'lesson' THEN EXISTS (
            SELECT FROM laurel.lesson_completions c WHERE c.user_id = fact_id_taken.user_id AND c.id = fact_id_taken.id)
        WHEN 'event' THEN EXISTS (
            SELECT FROM laurel.reported_events e WHERE e.user_id = fact_id_taken.user_id AND e.id = fact_id_taken.id)
        WHEN 'reminder' THEN EXISTS (
            SELECT FROM laurel.reminders r WHERE r.user_id = fact_id_taken.user_id AND r.id = fact_id_taken.id)
        ELSE false
    END;
END $$;

CREATE FUNCTION laurel.friend_figures(p_users bigint[]) RETURNS TABLE(user_id bigint, name text, level integer, xp bigint, current_streak integer, last_active_day text, streak_holds_through text, time_zone text, rest_day smallint, vacation boolean)
    LANGUAGE sql STABLE
    AS $$
    SELECT u.id, u.name, g.level, g.xp, g.current_streak, to_char(g.last_active_day, 'YYYY-MM-DD'),
           to_char(g.streak_holds_through, 'YYYY-MM-DD'), s.time_zone, s.rest_day, s.vacation
      FROM unnest(p_users) AS wanted(id)
      JOIN laurel.users u ON u.id = wanted.id
      JOIN laurel.progress g ON g.user_id = u.id
     CROSS JOIN LATERAL (SELECT s.time_zone, s.rest_day, s.vacation FROM laurel.settings s
                          WHERE s.user_id = u.id ORDER BY s.id DESC LIMIT 1) s;
$$;

CREATE FUNCTION laurel.grant_premium(name text, period interval DEFAULT NULL::interval) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    IF period IS NOT NULL AND period <= interval '0' THEN
        RAISE EXCEPTION 'the period must be positive' USING ERRCODE = 'invalid_parameter_value';
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at) VALUES (target, 'grant', now(), now() + period);
    PERFORM laurel.store_subscription_push(target);
END $$;

CREATE FUNCTION laurel.is_time_zone(p_zone text) RETURNS boolean
    LANGUAGE plpgsql STABLE
    AS $_$
BEGIN
    IF p_zone IS NULL OR NOT (p_zone ~ '^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)+$' OR p_zone IN ('UTC', 'GMT')) THEN
        RETURN false;
    END IF;
    PERFORM now() AT TIME ZONE p_zone;
    RETURN true;
EXCEPTION WHEN invalid_parameter_value THEN
    RETURN false;
END $_$;

CREATE FUNCTION laurel.issue_token(name text) RETURNS text
    LANGUAGE sql
    AS $$
    SELECT laurel.new_token(laurel.user_id_of(name));
$$;

CREATE FUNCTION laurel.leaderboard(p_board text, p_from date, p_to date, p_limit integer DEFAULT 100) RETURNS TABLE(rank bigint, user_id bigint, name text, score numeric, reached_at timestamp with time zone)
    LANGUAGE sql STABLE
    AS $$
    SELECT row_number() OVER (ORDER BY b.score DESC, b.reached_at, b.user_id), b.user_id, u.name, b.score, b.reached_at
      FROM (SELECT d.user_id, sum(d.score) AS score, max(d.reached_at) FILTER (WHERE d.score > 0) AS reached_at
              FROM laurel.day_scores d
             WHERE d.board = p_board AND d.day BETWEEN p_from AND p_to
               AND NOT EXISTS (SELECT 1 FROM laurel.leaderboard_opt_outs o WHERE o.user_id = d.user_id)
             GROUP BY d.user_id HAVING sum(d.score) > 0) b
      JOIN laurel.users u ON u.id = b.user_id
     ORDER BY b.score DESC, b.reached_at, b.user_id
     LIMIT p_limit;
$$;

CREATE FUNCTION laurel.new_token(p_user bigint) RETURNS text
    LANGUAGE plpgsql
    AS $$
DECLARE
    token text := 'lt_' || encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'hex');
BEGIN
    INSERT INTO laurel.tokens (digest, user_id) VALUES (sha256(convert_to(token, 'UTF8')), p_user);
    RETURN token;
END $$;

CREATE FUNCTION laurel.register_instance(instance text) RETURNS void
    LANGUAGE plpgsql
    AS $$
BEGIN
    -- The registry's lock (7416 and 1 stand for laurel.instances), tried between commits rather than waited for in
    -- the lock's queue: an exclusive request waiting there holds up every commit that asks after it, and a commit
    -- that asks while it holds a user's row (PostgresStore.withUserLocked) would close a cycle with a batch that holds
    -- the lock and waits for that row, which PostgreSQL undoes only after its deadlock_timeout. A commit holds the
    -- lock for milliseconds; after ten seconds of trying it is waited for (taken again when held, it is counted twice).
    FOR attempt IN 1 .. 5000 LOOP
        EXIT WHEN pg_try_advisory_xact_lock(7416, 1);
        PERFORM pg_sleep(0.002);
    END LOOP;
    PERFORM pg_advisory_xact_lock(7416, 1);
    DELETE FROM laurel.instances i
     WHERE i.id = instance
        -- (A backend of another role shows no backend_start: its pid alone keeps the row then. A row kept in doubt
        -- costs announcements, never a missed one.)
        OR NOT EXISTS (SELECT FROM pg_stat_activity a
                        WHERE a.pid = i.listener_pid AND (a.backend_start IS NULL OR a.backend_start = i.listener_started_at));
    INSERT INTO laurel.instances (id, listener_pid, listener_started_at)
    SELECT instance, a.pid, a.backend_start FROM pg_stat_activity a WHERE a.pid = pg_backend_pid();
END $$;

CREATE FUNCTION laurel.remove_friend(p_user bigint, p_friend bigint) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    DELETE FROM laurel.friendships
     WHERE (user_id = p_user AND friend_id = p_friend) OR (user_id = p_friend AND friend_id = p_user);
    RETURN FOUND;
END $$;

CREATE FUNCTION laurel.revoke_premium(name text) RETURNS void
    LANGUAGE plpgsql
    AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
BEGIN
    UPDATE laurel.subscriptions SET revoked_at = now()
     WHERE user_id = target AND revoked_at IS NULL AND starts_at <= now() AND (ends_at IS NULL OR ends_at > now());
    IF FOUND THEN
        PERFORM laurel.store_subscription_push(target);
    END IF;
END $$;

CREATE FUNCTION laurel.revoke_tokens(name text) RETURNS integer
    LANGUAGE plpgsql
    AS $$
DECLARE
    target bigint := laurel.user_id_of(name);
    revoked integer;
BEGIN
    UPDATE laurel.tokens SET revoked_at = now() WHERE user_id = target AND revoked_at IS NULL;
    GET DIAGNOSTICS revoked = ROW_COUNT;
    PERFORM laurel.announce('tokens_revoked', target);
    RETURN revoked;
END $$;

CREATE FUNCTION laurel.rfc3339(p_at timestamp with time zone) RETURNS text
    LANGUAGE sql STABLE
    AS $$
    SELECT to_char(utc, CASE WHEN utc = date_trunc('second', utc) THEN 'YYYY-MM-DD"T"HH24:MI:SS"Z"'
                             ELSE 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' END)
      FROM (SELECT date_trunc('milliseconds', (p_at AT TIME ZONE 'UTC') + interval '0.5 milliseconds') AS utc) rounded;
$$;

CREATE FUNCTION laurel.save_snapshot(p_user bigint, p_version bigint, p_last_log_seq bigint, p_last_lesson_seq bigint, p_last_event_seq bigint, p_last_reminder_seq bigint, p_state text) RETURNS boolean
    LANGUAGE plpgsql
    AS $$
BEGIN
    INSERT INTO laurel.progress_snapshots AS s (user_id, version, last_log_seq, last_lesson_seq, last_event_seq, last_reminder_seq, state)
    SELECT p_user, p_version, p_last_log_seq, p_last_lesson_seq, p_last_event_seq, p_last_reminder_seq, p_state::json
      FROM laurel.progress g
     WHERE g.user_id = p_user AND g.rebuilt_version <= p_version AND g.version >= p_version
    ON CONFLICT (user_id) DO UPDATE
       SET version = EXCLUDED.version, last_log_seq = EXCLUDED.last_log_seq, last_lesson_seq = EXCLUDED.last_lesson_seq,
           last_event_seq = EXCLUDED.last_event_seq, last_reminder_seq = EXCLUDED.last_reminder_seq, state = EXCLUDED.state
     WHERE s.version < EXCLUDED.version;
    RETURN FOUND;
END $$;

CREATE FUNCTION laurel.start_trial(p_user bigint) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
BEGIN
    UPDATE laurel.users SET trial_used = true WHERE id = p_user AND NOT trial_used;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.subscriptions (user_id, kind, starts_at, ends_at)
    VALUES (p_user, 'trial', now(), now() + interval '14 days');
    RETURN laurel.store_subscription_push(p_user);
END $$;

CREATE FUNCTION laurel.store_challenge_changes(users bigint[], decided bigint[], scores json[], completed json[], batch laurel.commit_part[], chosen integer[]) RETURNS void
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    SET enable_nestloop TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
    AS $$
DECLARE
    any_scores boolean := false;
    any_chosen boolean := false;
    any_completed boolean := false;
BEGIN
    FOR part IN 1 .. coalesce(cardinality(users), 0) LOOP
        any_scores := any_scores OR scores[part] IS NOT NULL;
        any_completed := any_completed OR completed[part] IS NOT NULL;
    END LOOP;
    any_chosen := cardinality(chosen) > 0;
    IF any_scores THEN
        INSERT INTO laurel.earlier_day_scores AS k (user_id, day, board, score, reached_at)
        SELECT s.user_id, x.day, x.board, x.delta, 'epoch'::timestamptz + x.reached_us * interval '1 microsecond'
          FROM unnest(users, scores) AS s(user_id, day_scores)
         CROSS JOIN LATERAL json_to_recordset(s.day_scores) AS x(day date, board text, delta bigint, reached_us bigint)
         WHERE s.day_scores IS NOT NULL
        ON CONFLICT (user_id, day, board) DO UPDATE
           SET score = k.score + EXCLUDED.score,
               reached_at = CASE WHEN EXCLUDED.score > 0 THEN EXCLUDED.reached_at ELSE k.reached_at END;
    END IF;
    IF any_completed THEN
        -- Decided at the version they are stored at, so still open; the condition keeps a completion permanent anyway.
        UPDATE laurel.challenges c SET completed_at = 'epoch'::timestamptz + s.decided_us * interval '1 microsecond'
          FROM unnest(users, decided, completed) AS s(user_id, decided_us, done_list)
         CROSS JOIN LATERAL json_to_recordset(s.done_list) AS done(period text, period_start date, slot smallint)
         WHERE c.user_id = ANY (ARRAY(SELECT t.user_id FROM unnest(users, completed) AS t(user_id, done_list) WHERE t.done_list IS NOT NULL))
           AND s.done_list IS NOT NULL
           AND c.user_id = s.user_id AND c.period = done.period AND c.period_start = done.period_start AND c.slot = done.slot
           AND c.completed_at IS NULL;
    END IF;
    IF any_chosen THEN
        INSERT INTO laurel.challenges (user_id, period, period_start, slot, kind, title, target, xp, activity_id, hour, chosen_at, completed_at)
        SELECT p.user_id, x.period, x.period_start, x.slot, x.kind, x.title, x.target, x.xp, x.activity_id, x.hour,
               'epoch'::timestamptz + p.decided_us * interval '1 microsecond',
               CASE WHEN x.completed THEN 'epoch'::timestamptz + p.decided_us * interval '1 microsecond' END
          FROM unnest(batch) AS p
          JOIN unnest(chosen) AS c(n) ON c.n = p.n
         CROSS JOIN LATERAL unnest(p.chosen_period, p.chosen_start, p.chosen_slot, p.chosen_kind, p.chosen_title, p.chosen_target,
                                   p.chosen_xp, p.chosen_activity, p.chosen_hour, p.chosen_completed)
                            AS x(period, period_start, slot, kind, title, target, xp, activity_id, hour, completed);
    END IF;
END $$;

CREATE FUNCTION laurel.store_change_extras(batch laurel.commit_part[], parts integer[], versions bigint[], fact_seqs bigint[]) RETURNS void
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    SET enable_nestloop TO 'on'
    SET plan_cache_mode TO 'force_generic_plan'
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

CREATE FUNCTION laurel.store_changes(batch laurel.commit_part[]) RETURNS TABLE(outcome text, new_version bigint, new_last_seq bigint, fact_seq bigint, part_user bigint, announced text)
    LANGUAGE plpgsql
    SET enable_seqscan TO 'off'
    SET enable_nestloop TO 'off'
    SET plan_cache_mode TO 'force_generic_plan'
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

CREATE FUNCTION laurel.store_subscription_push(p_user bigint) RETURNS bigint
    LANGUAGE plpgsql
    AS $$
DECLARE
    next_seq bigint;
    next_version bigint;
BEGIN
    UPDATE laurel.progress
       SET last_seq = last_seq + 1, version = version + 1, reload_version = version + 1, updated_at = now()
     WHERE user_id = p_user
    RETURNING last_seq, version INTO next_seq, next_version;
    IF next_seq IS NULL THEN
        RETURN NULL;
    END IF;
    INSERT INTO laurel.pushes (user_id, seq, kind, data)
    VALUES (p_user, next_seq, 'SUBSCRIPTION', laurel.subscription_document(p_user));
    PERFORM laurel.announce_commits(ARRAY[laurel.announced_commit(p_user, next_version, next_seq, NULL, NULL)]);
    RETURN next_seq;
END $$;

CREATE FUNCTION laurel.subscription_at(p_user bigint, p_at timestamp with time zone DEFAULT now()) RETURNS TABLE(tier text, status text, ends_at timestamp with time zone)
    LANGUAGE sql STABLE
    AS $$
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

CREATE FUNCTION laurel.subscription_document(p_user bigint) RETURNS json
    LANGUAGE sql STABLE
    AS $$
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

CREATE FUNCTION laurel.template_limit() RETURNS integer
    LANGUAGE sql STABLE
    AS $$
    SELECT coalesce(nullif(current_setting('laurel.template_limit', true), '')::integer,
                    (SELECT l.template_limit FROM laurel.server_limits l), 100)
$$;

CREATE FUNCTION laurel.unpublish_listing(listing_id text) RETURNS boolean
    LANGUAGE sql
    AS $$
    WITH gone AS (DELETE FROM laurel.listings l WHERE l.id::text = unpublish_listing.listing_id RETURNING 1)
    SELECT count(*) > 0 FROM gone
$$;

CREATE FUNCTION laurel.unregister_instance(instance text) RETURNS void
    LANGUAGE sql
    AS $$
    DELETE FROM laurel.instances WHERE id = instance;
$$;

CREATE FUNCTION laurel.user_id_of(p_name text) RETURNS bigint
    LANGUAGE plpgsql STABLE
    AS $$
DECLARE
    found_id bigint;
BEGIN
    SELECT id INTO found_id FROM laurel.users WHERE lower(name COLLATE "und-x-icu") = lower(btrim(p_name) COLLATE "und-x-icu");
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'no user named "%"', p_name USING ERRCODE = 'no_data_found';
    END IF;
    RETURN found_id;
END $$;

CREATE TABLE laurel.achievements (
    id text NOT NULL,
    name text NOT NULL,
    category text NOT NULL,
    tier text NOT NULL,
    target integer NOT NULL,
    secret boolean DEFAULT false NOT NULL,
    catalog text NOT NULL
);

CREATE TABLE laurel.logs (
    user_id bigint NOT NULL,
    id laurel.fact_id NOT NULL,
    seq bigint NOT NULL,
    activity_id text NOT NULL,
    amount laurel.log_amount NOT NULL,
    at timestamp with time zone NOT NULL,
    day date NOT NULL,
    local_hour laurel.local_hour NOT NULL,
    note text,
    requested_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    response text NOT NULL
);

CREATE TABLE laurel.unlocks (
    user_id bigint NOT NULL,
    achievement_id text NOT NULL,
    unlocked_at timestamp with time zone NOT NULL
);

CREATE VIEW laurel.achievement_stats AS
 WITH active AS (
         SELECT count(DISTINCT logs.user_id) AS users
           FROM laurel.logs
          WHERE ((logs.deleted_at IS NULL) AND (logs.at > (now() - '30 days'::interval)))
        )
 SELECT a.id AS achievement_id,
    a.name,
    a.category,
    a.tier,
    count(u.user_id) AS unlocked_by,
        CASE
            WHEN (active.users = 0) THEN (0)::numeric
            ELSE round(((100.0 * (count(u.user_id) FILTER (WHERE (EXISTS ( SELECT 1
               FROM laurel.logs l
              WHERE ((l.user_id = u.user_id) AND (l.deleted_at IS NULL) AND (l.at > (now() - '30 days'::interval)))))))::numeric) / (active.users)::numeric), 1)
        END AS share_of_active_users_percent
   FROM ((laurel.achievements a
     CROSS JOIN active)
     LEFT JOIN laurel.unlocks u ON ((u.achievement_id = a.id)))
  GROUP BY a.id, a.name, a.category, a.tier, active.users;

CREATE TABLE laurel.activities (
    id text NOT NULL,
    name text NOT NULL,
    unit text NOT NULL,
    icon text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    CONSTRAINT activities_unit_check CHECK ((unit = ANY (ARRAY['reps'::text, 'seconds'::text, 'minutes'::text, 'sessions'::text, 'times'::text])))
);

CREATE TABLE laurel.auth_failures (
    source inet NOT NULL,
    available double precision,
    spent_at timestamp with time zone,
    CONSTRAINT auth_failures_check CHECK (((available IS NULL) = (spent_at IS NULL)))
);

CREATE TABLE laurel.challenges (
    user_id bigint NOT NULL,
    period text NOT NULL,
    period_start date NOT NULL,
    slot smallint NOT NULL,
    kind text NOT NULL,
    title text NOT NULL,
    target integer NOT NULL,
    xp integer NOT NULL,
    activity_id text,
    hour smallint,
    chosen_at timestamp with time zone NOT NULL,
    completed_at timestamp with time zone,
    CONSTRAINT challenges_period_check CHECK ((period = ANY (ARRAY['daily'::text, 'weekly'::text]))),
    CONSTRAINT challenges_slot_check CHECK ((slot >= 0)),
    CONSTRAINT challenges_target_check CHECK ((target > 0)),
    CONSTRAINT challenges_xp_check CHECK ((xp >= 0))
);

CREATE TABLE laurel.custom_activities (
    user_id bigint NOT NULL,
    id text NOT NULL,
    name text NOT NULL,
    unit text NOT NULL,
    icon text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    deleted_at timestamp with time zone,
    CONSTRAINT custom_activities_unit_check CHECK ((unit = ANY (ARRAY['reps'::text, 'seconds'::text, 'minutes'::text, 'sessions'::text, 'times'::text])))
);

CREATE TABLE laurel.earlier_day_scores (
    user_id bigint NOT NULL,
    day date NOT NULL,
    board text NOT NULL,
    score bigint NOT NULL,
    reached_at timestamp with time zone NOT NULL
)
WITH (fillfactor='80');

CREATE TABLE laurel.progress (
    user_id bigint NOT NULL,
    version bigint DEFAULT 0 NOT NULL,
    reload_version bigint DEFAULT 0 NOT NULL,
    rebuilt_version bigint DEFAULT 0 NOT NULL,
    last_seq bigint DEFAULT 0 NOT NULL,
    xp bigint DEFAULT 0 NOT NULL,
    level integer DEFAULT 1 NOT NULL,
    max_level integer DEFAULT 1 NOT NULL,
    current_streak integer DEFAULT 0 NOT NULL,
    longest_streak integer DEFAULT 0 NOT NULL,
    streak_freezes smallint DEFAULT 0 NOT NULL,
    streak_at_risk boolean DEFAULT false NOT NULL,
    last_active_day date,
    streak_holds_through date,
    challenge_xp integer DEFAULT 0 NOT NULL,
    unlocked integer DEFAULT 0 NOT NULL,
    total_logs integer DEFAULT 0 NOT NULL,
    active_days integer DEFAULT 0 NOT NULL,
    log_allowance double precision,
    log_allowance_at timestamp with time zone,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    goal_met_week date,
    latest_score_day date,
    latest_scores text
)
WITH (fillfactor='70');

CREATE VIEW laurel.day_scores AS
 SELECT e.user_id,
    e.day,
    e.board,
    e.score,
    e.reached_at
   FROM laurel.earlier_day_scores e
UNION ALL
 SELECT g.user_id,
    g.latest_score_day AS day,
    x.key AS board,
    ((x.value ->> 0))::bigint AS score,
    ('1970-01-01 00:00:00+00'::timestamp with time zone + ((((x.value ->> 1))::bigint)::double precision * '00:00:00.000001'::interval)) AS reached_at
   FROM (laurel.progress g
     CROSS JOIN LATERAL json_each((g.latest_scores)::json) x(key, value))
  WHERE (g.latest_score_day IS NOT NULL);

CREATE TABLE laurel.friendships (
    user_id bigint NOT NULL,
    friend_id bigint NOT NULL,
    since timestamp with time zone NOT NULL,
    CONSTRAINT friendships_check CHECK ((user_id <> friend_id))
);

CREATE TABLE laurel.instances (
    id text NOT NULL,
    listener_pid integer NOT NULL,
    listener_started_at timestamp with time zone NOT NULL,
    registered_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE laurel.invites (
    code text NOT NULL,
    inviter_id bigint NOT NULL,
    created_at timestamp with time zone NOT NULL,
    expires_at timestamp with time zone NOT NULL,
    accepted_by bigint,
    accepted_at timestamp with time zone,
    event_recorded boolean DEFAULT false NOT NULL,
    CONSTRAINT invites_check CHECK (((accepted_by IS NULL) = (accepted_at IS NULL))),
    CONSTRAINT invites_code_check CHECK ((code ~ '^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$'::text))
);

CREATE TABLE laurel.leaderboard_opt_outs (
    user_id bigint NOT NULL
);

CREATE TABLE laurel.lesson_completions (
    user_id bigint NOT NULL,
    id text NOT NULL,
    seq bigint NOT NULL,
    lesson_id text NOT NULL,
    category text NOT NULL,
    at timestamp with time zone NOT NULL,
    day date NOT NULL,
    requested_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    response text NOT NULL,
    CONSTRAINT lesson_completions_id_check CHECK (((length(id) >= 1) AND (length(id) <= 128)))
);

ALTER TABLE laurel.lesson_completions ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.lesson_completions_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.listing_installs (
    listing_id uuid NOT NULL,
    user_id bigint NOT NULL
);

CREATE TABLE laurel.listings (
    id uuid NOT NULL,
    author_id bigint NOT NULL,
    template_id uuid NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    tiers json NOT NULL,
    activity_name text,
    description text NOT NULL,
    installs integer DEFAULT 0 NOT NULL,
    published_at timestamp with time zone NOT NULL,
    updated_at timestamp with time zone NOT NULL,
    combo json,
    CONSTRAINT listings_description_check CHECK ((length(description) <= 280))
);

ALTER TABLE laurel.logs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.logs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.progress_snapshots (
    user_id bigint NOT NULL,
    version bigint NOT NULL,
    last_log_seq bigint NOT NULL,
    last_lesson_seq bigint NOT NULL,
    last_event_seq bigint NOT NULL,
    state json NOT NULL,
    last_reminder_seq bigint DEFAULT 0 NOT NULL
);

CREATE TABLE laurel.pushes (
    user_id bigint NOT NULL,
    seq bigint NOT NULL,
    kind text NOT NULL,
    data json NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE laurel.reminders (
    user_id bigint NOT NULL,
    id text NOT NULL,
    seq bigint NOT NULL,
    at timestamp with time zone NOT NULL,
    day date NOT NULL,
    window_minutes smallint NOT NULL,
    answered boolean NOT NULL,
    requested_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    response text NOT NULL,
    CONSTRAINT reminders_id_check CHECK (((length(id) >= 1) AND (length(id) <= 128))),
    CONSTRAINT reminders_window_minutes_check CHECK (((window_minutes >= 5) AND (window_minutes <= 240)))
);

ALTER TABLE laurel.reminders ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.reminders_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.reported_events (
    user_id bigint NOT NULL,
    id text NOT NULL,
    seq bigint NOT NULL,
    name text NOT NULL,
    at timestamp with time zone NOT NULL,
    day date NOT NULL,
    requested_at timestamp with time zone,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    response text NOT NULL,
    CONSTRAINT reported_events_id_check CHECK (((length(id) >= 1) AND (length(id) <= 128)))
);

ALTER TABLE laurel.reported_events ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.reported_events_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.schema_migrations (
    version integer NOT NULL,
    name text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE laurel.schema_objects (
    file text NOT NULL,
    body text NOT NULL,
    applied_at timestamp with time zone DEFAULT now() NOT NULL
);

CREATE TABLE laurel.server_limits (
    only_row boolean DEFAULT true NOT NULL,
    template_limit integer NOT NULL,
    CONSTRAINT server_limits_only_row_check CHECK (only_row),
    CONSTRAINT server_limits_template_limit_check CHECK ((template_limit >= 0))
);

CREATE TABLE laurel.settings (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    changed_at timestamp with time zone DEFAULT now() NOT NULL,
    effective_day date NOT NULL,
    time_zone text NOT NULL,
    rest_day smallint,
    vacation boolean DEFAULT false NOT NULL,
    weekly_goal smallint DEFAULT 3 NOT NULL,
    reminder_window_minutes smallint DEFAULT 30 NOT NULL,
    leaderboards boolean DEFAULT true NOT NULL,
    CONSTRAINT settings_reminder_window_minutes_check CHECK (((reminder_window_minutes >= 5) AND (reminder_window_minutes <= 240))),
    CONSTRAINT settings_rest_day_check CHECK (((rest_day >= 1) AND (rest_day <= 7))),
    CONSTRAINT settings_weekly_goal_check CHECK (((weekly_goal >= 1) AND (weekly_goal <= 7)))
);

ALTER TABLE laurel.settings ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.settings_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.subscriptions (
    id bigint NOT NULL,
    user_id bigint NOT NULL,
    kind text NOT NULL,
    starts_at timestamp with time zone DEFAULT now() NOT NULL,
    ends_at timestamp with time zone,
    revoked_at timestamp with time zone,
    announced_end boolean DEFAULT false NOT NULL,
    CONSTRAINT subscriptions_check CHECK (((ends_at IS NULL) OR (ends_at > starts_at))),
    CONSTRAINT subscriptions_kind_check CHECK ((kind = ANY (ARRAY['trial'::text, 'grant'::text])))
);

ALTER TABLE laurel.subscriptions ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.subscriptions_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.templates (
    id uuid DEFAULT gen_random_uuid() NOT NULL,
    user_id bigint NOT NULL,
    activity_id text NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    tiers json NOT NULL,
    active boolean DEFAULT true NOT NULL,
    inactive_reason text,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    updated_at timestamp with time zone DEFAULT now() NOT NULL,
    listing_id uuid,
    combo json,
    CONSTRAINT templates_check CHECK ((active = (inactive_reason IS NULL))),
    CONSTRAINT templates_inactive_reason_check CHECK ((inactive_reason = ANY (ARRAY['activity_deleted'::text, 'deactivated'::text]))),
    CONSTRAINT templates_name_check CHECK (((length(btrim(name)) >= 1) AND (length(btrim(name)) <= 64))),
    CONSTRAINT templates_type_check CHECK ((type = ANY (ARRAY['volume'::text, 'daily'::text, 'weekly'::text, 'streak'::text, 'speed'::text, 'progressive'::text, 'monthly'::text, 'combo'::text])))
);

CREATE TABLE laurel.tokens (
    digest bytea NOT NULL,
    user_id bigint NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    revoked_at timestamp with time zone
);

CREATE TABLE laurel.user_names (
    name_key text NOT NULL
);

CREATE TABLE laurel.users (
    id bigint NOT NULL,
    name text NOT NULL,
    created_at timestamp with time zone DEFAULT now() NOT NULL,
    last_seen_at timestamp with time zone,
    trial_used boolean DEFAULT false NOT NULL,
    CONSTRAINT users_name_check CHECK ((((length(btrim(name)) >= 1) AND (length(btrim(name)) <= 64)) AND (name !~ '[[:cntrl:]]'::text)))
);

CREATE VIEW laurel.user_overview AS
 SELECT u.name,
    sub.tier,
    sub.status,
    p.level,
    p.xp,
        CASE
            WHEN (p.streak_holds_through < ((now() AT TIME ZONE zone.time_zone))::date) THEN 0
            ELSE p.current_streak
        END AS current_streak,
    p.longest_streak,
    p.total_logs AS logs,
    p.unlocked,
    u.last_seen_at AS last_seen,
    ( SELECT count(*) AS count
           FROM laurel.challenges c
          WHERE ((c.user_id = u.id) AND (c.period = 'daily'::text) AND (c.completed_at IS NOT NULL) AND (c.period_start = ((now() AT TIME ZONE zone.time_zone))::date))) AS challenges_completed_today
   FROM (((laurel.users u
     LEFT JOIN laurel.progress p ON ((p.user_id = u.id)))
     LEFT JOIN LATERAL ( SELECT s.time_zone
           FROM laurel.settings s
          WHERE (s.user_id = u.id)
          ORDER BY s.id DESC
         LIMIT 1) zone ON (true))
     CROSS JOIN LATERAL laurel.subscription_at(u.id) sub(tier, status, ends_at));

ALTER TABLE laurel.users ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME laurel.users_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);

CREATE TABLE laurel.week_rankings (
    board text NOT NULL,
    week text NOT NULL,
    total integer NOT NULL,
    ranked_at timestamp with time zone NOT NULL
);

CREATE TABLE laurel.week_ranks (
    user_id bigint NOT NULL,
    board text NOT NULL,
    week text NOT NULL,
    rank integer NOT NULL
);

ALTER TABLE ONLY laurel.achievements
    ADD CONSTRAINT achievements_pkey PRIMARY KEY (id);

ALTER TABLE ONLY laurel.activities
    ADD CONSTRAINT activities_pkey PRIMARY KEY (id);

ALTER TABLE ONLY laurel.auth_failures
    ADD CONSTRAINT auth_failures_pkey PRIMARY KEY (source);

ALTER TABLE ONLY laurel.challenges
    ADD CONSTRAINT challenges_pkey PRIMARY KEY (user_id, period, period_start, slot);

ALTER TABLE ONLY laurel.custom_activities
    ADD CONSTRAINT custom_activities_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.earlier_day_scores
    ADD CONSTRAINT earlier_day_scores_pkey PRIMARY KEY (user_id, day, board);

ALTER TABLE ONLY laurel.friendships
    ADD CONSTRAINT friendships_pkey PRIMARY KEY (user_id, friend_id);

ALTER TABLE ONLY laurel.instances
    ADD CONSTRAINT instances_pkey PRIMARY KEY (id);

ALTER TABLE ONLY laurel.invites
    ADD CONSTRAINT invites_pkey PRIMARY KEY (code);

ALTER TABLE ONLY laurel.leaderboard_opt_outs
    ADD CONSTRAINT leaderboard_opt_outs_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY laurel.lesson_completions
    ADD CONSTRAINT lesson_completions_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.listing_installs
    ADD CONSTRAINT listing_installs_pkey PRIMARY KEY (listing_id, user_id);

ALTER TABLE ONLY laurel.listings
    ADD CONSTRAINT listings_author_id_template_id_key UNIQUE (author_id, template_id);

ALTER TABLE ONLY laurel.listings
    ADD CONSTRAINT listings_pkey PRIMARY KEY (id);

ALTER TABLE ONLY laurel.logs
    ADD CONSTRAINT logs_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.progress
    ADD CONSTRAINT progress_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY laurel.progress_snapshots
    ADD CONSTRAINT progress_snapshots_pkey PRIMARY KEY (user_id);

ALTER TABLE ONLY laurel.pushes
    ADD CONSTRAINT pushes_pkey PRIMARY KEY (user_id, seq);

ALTER TABLE ONLY laurel.reminders
    ADD CONSTRAINT reminders_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.reported_events
    ADD CONSTRAINT reported_events_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.schema_migrations
    ADD CONSTRAINT schema_migrations_pkey PRIMARY KEY (version);

ALTER TABLE ONLY laurel.schema_objects
    ADD CONSTRAINT schema_objects_pkey PRIMARY KEY (file);

ALTER TABLE ONLY laurel.server_limits
    ADD CONSTRAINT server_limits_pkey PRIMARY KEY (only_row);

ALTER TABLE ONLY laurel.settings
    ADD CONSTRAINT settings_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.subscriptions
    ADD CONSTRAINT subscriptions_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.templates
    ADD CONSTRAINT templates_pkey PRIMARY KEY (user_id, id);

ALTER TABLE ONLY laurel.tokens
    ADD CONSTRAINT tokens_pkey PRIMARY KEY (user_id, digest);

ALTER TABLE ONLY laurel.unlocks
    ADD CONSTRAINT unlocks_pkey PRIMARY KEY (user_id, achievement_id);

ALTER TABLE ONLY laurel.user_names
    ADD CONSTRAINT user_names_pkey PRIMARY KEY (name_key);

ALTER TABLE ONLY laurel.users
    ADD CONSTRAINT users_pkey PRIMARY KEY (id);

ALTER TABLE ONLY laurel.week_rankings
    ADD CONSTRAINT week_rankings_pkey PRIMARY KEY (board, week);

ALTER TABLE ONLY laurel.week_ranks
    ADD CONSTRAINT week_ranks_pkey PRIMARY KEY (user_id, board, week);

CREATE UNIQUE INDEX custom_activities_name ON laurel.custom_activities USING btree (user_id, lower((name COLLATE "und-x-icu")));

CREATE INDEX earlier_day_scores_board_day ON laurel.earlier_day_scores USING btree (board, day);

CREATE INDEX invites_by_acceptor ON laurel.invites USING btree (accepted_by) WHERE (accepted_by IS NOT NULL);

CREATE INDEX invites_by_inviter ON laurel.invites USING btree (inviter_id);

CREATE INDEX invites_event_pending ON laurel.invites USING btree (accepted_at) WHERE ((accepted_by IS NOT NULL) AND (NOT event_recorded));

CREATE INDEX invites_inviter ON laurel.invites USING btree (inviter_id, expires_at) WHERE (accepted_by IS NULL);

CREATE INDEX lesson_completions_user_seq ON laurel.lesson_completions USING btree (user_id, seq);

CREATE INDEX listings_new ON laurel.listings USING btree (published_at DESC, id DESC);

CREATE INDEX listings_popular ON laurel.listings USING btree (installs DESC, published_at DESC, id DESC);

CREATE INDEX logs_user_at ON laurel.logs USING btree (user_id, at DESC, seq DESC) WHERE (deleted_at IS NULL);

CREATE INDEX logs_user_seq ON laurel.logs USING btree (user_id, seq) WHERE (deleted_at IS NULL);

CREATE INDEX progress_by_latest_score_day ON laurel.progress USING btree (latest_score_day) WHERE (latest_score_day IS NOT NULL);

CREATE INDEX reminders_user_seq ON laurel.reminders USING btree (user_id, seq);

CREATE INDEX reported_events_user_seq ON laurel.reported_events USING btree (user_id, seq);

CREATE INDEX subscriptions_end_to_announce ON laurel.subscriptions USING btree (ends_at) WHERE ((NOT announced_end) AND (revoked_at IS NULL) AND (ends_at IS NOT NULL));

CREATE INDEX templates_user ON laurel.templates USING btree (user_id, created_at);

CREATE INDEX tokens_digest ON laurel.tokens USING btree (digest);

CREATE INDEX users_name ON laurel.users USING btree (lower((name COLLATE "und-x-icu")));

CREATE INDEX week_ranks_by_week ON laurel.week_ranks USING btree (board, week);

ALTER TABLE ONLY laurel.custom_activities
    ADD CONSTRAINT custom_activities_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.friendships
    ADD CONSTRAINT friendships_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.listing_installs
    ADD CONSTRAINT listing_installs_listing_id_fkey FOREIGN KEY (listing_id) REFERENCES laurel.listings(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.progress_snapshots
    ADD CONSTRAINT progress_snapshots_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.progress
    ADD CONSTRAINT progress_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.settings
    ADD CONSTRAINT settings_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.subscriptions
    ADD CONSTRAINT subscriptions_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.templates
    ADD CONSTRAINT templates_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;

ALTER TABLE ONLY laurel.tokens
    ADD CONSTRAINT tokens_user_id_fkey FOREIGN KEY (user_id) REFERENCES laurel.users(id) ON DELETE CASCADE;
