-- Friends (rules.md, "Friends and leaderboards").
--
-- Invite codes are found by code, whoever made them: a shared table keyed by the code, naming its inviter (and
-- the user who accepted it) without a foreign key, as listings name their authors. A code is open until it
-- expires or is accepted; `event_recorded` says whether the inviter's `invite` event, a write of the inviter made
-- after the acceptance commits, has been stored (the servers finish any that a stop interrupted).
CREATE TABLE laurel.invites (
    code            text         PRIMARY KEY CHECK (code ~ '^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{8}$'),
    inviter_id      bigint       NOT NULL,
    created_at      timestamptz  NOT NULL,
    expires_at      timestamptz  NOT NULL,
    accepted_by     bigint,
    accepted_at     timestamptz,
    event_recorded  boolean      NOT NULL DEFAULT false,
    CHECK ((accepted_by IS NULL) = (accepted_at IS NULL))
);
CREATE INDEX invites_inviter ON laurel.invites (inviter_id, expires_at) WHERE accepted_by IS NULL;
CREATE INDEX invites_event_pending ON laurel.invites (accepted_at) WHERE accepted_by IS NOT NULL AND NOT event_recorded;

-- A friendship is stored on both sides, each row in its user's shard; the friend is named without a foreign key
-- (it would reach another user's rows).
CREATE TABLE laurel.friendships (
    user_id    bigint       NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    friend_id  bigint       NOT NULL,
    since      timestamptz  NOT NULL,
    PRIMARY KEY (user_id, friend_id),
    CHECK (user_id <> friend_id)
);

-- SETTINGS' `leaderboards`: false hides the user from global boards.
ALTER TABLE laurel.settings ADD COLUMN leaderboards boolean NOT NULL DEFAULT true;
