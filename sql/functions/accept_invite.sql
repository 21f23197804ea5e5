-- User `p_user` accepts invite `p_code` of `p_inviter` at `p_now`: the friendship is stored on both sides, the code is
-- used up, and each side gets its FRIEND push (`p_push_to_user` describes the inviter, `p_push_to_inviter` the user),
-- as a write of that user that every instance hears of. Answers the outcome and, when 'accepted', the two pushes'
-- seqs; on any other outcome nothing is stored:
--   'not_found'        no open code (unknown, expired, used, or another inviter's),
--   'own_code'         the user's own code,
--   'already_friends',
--   'too_large'        either side has `p_max_friends` friends already.
-- Both users' progress row locks are taken first, in id order, as every writer of a user takes them (an account's
-- deletion too, before it deletes the user's codes): two acceptances cannot both pass a count, and nothing waits
-- for a lock in the other order. A user whose row is gone (deleted meanwhile) makes the code `not_found`.
CREATE OR REPLACE FUNCTION laurel.accept_invite(
    p_user bigint, p_code text, p_inviter bigint, p_now timestamptz, p_max_friends integer,
    p_push_to_user json, p_push_to_inviter json
) RETURNS TABLE (outcome text, user_seq bigint, inviter_seq bigint)
LANGUAGE plpgsql AS $$
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
