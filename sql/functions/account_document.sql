-- Everything stored about a user, as one JSON document (ACCOUNT.EXPORT). Unlocks include those no longer listed
-- (tiers of templates that were edited), as rules.md asks.
CREATE OR REPLACE FUNCTION laurel.account_document(p_user bigint) RETURNS json
LANGUAGE sql STABLE AS $$
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
