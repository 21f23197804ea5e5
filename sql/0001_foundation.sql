-- Laurel foundation: users, tokens, settings history, subscriptions, activities, logs, unlocks, stored pushes.
-- Applied once by `laurel migrate` / `laurel serve`, inside a transaction, recorded in laurel.schema_migrations.

CREATE SCHEMA IF NOT EXISTS laurel;

CREATE TABLE laurel.users (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text        NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 64 AND name !~ '[[:cntrl:]]'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz,
    -- The last push sequence number handed out; pushes take last_seq + 1 under the user's row lock.
    last_seq      bigint      NOT NULL DEFAULT 0,
    -- Ever started a trial: the trial is once per user, ever, even after the subscription rows are gone.
    trial_used    boolean     NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX users_name_key ON laurel.users (lower(name));

-- Only a SHA-256 digest of each token is kept; the token itself is shown once.
CREATE TABLE laurel.tokens (
    digest      bytea       PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX tokens_user ON laurel.tokens (user_id);

-- Settings with history: each change is a full snapshot in force from effective_day (the user's local date
-- on which it was made) on. Rest days and vacations are judged by the snapshot in force on each day.
CREATE TABLE laurel.settings (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    changed_at     timestamptz NOT NULL DEFAULT now(),
    effective_day  date        NOT NULL,
    time_zone      text        NOT NULL,
    rest_day       smallint    CHECK (rest_day BETWEEN 1 AND 7),   -- ISO weekday, 1 = Monday
    vacation       boolean     NOT NULL DEFAULT false
);
CREATE INDEX settings_user ON laurel.settings (user_id, id DESC);

-- Premium periods: a trial (14 days, once) or an operator's grant (with or without an end).
CREATE TABLE laurel.subscriptions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    kind        text        NOT NULL CHECK (kind IN ('trial', 'grant')),
    starts_at   timestamptz NOT NULL DEFAULT now(),
    ends_at     timestamptz,
    revoked_at  timestamptz,
    CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX subscriptions_user ON laurel.subscriptions (user_id);

-- Activities: the catalog's built-ins (user_id NULL, id = the catalog's slug) and users' custom ones
-- (id = a UUID). Custom activities are soft-deleted so their logs, and their names, survive.
CREATE TABLE laurel.activities (
    id          text        PRIMARY KEY,
    user_id     bigint      REFERENCES laurel.users ON DELETE CASCADE,
    name        text        NOT NULL,
    unit        text        NOT NULL CHECK (unit IN ('reps', 'seconds', 'minutes', 'sessions', 'times')),
    icon        text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    deleted_at  timestamptz,
    CHECK (user_id IS NOT NULL OR deleted_at IS NULL)
);
CREATE UNIQUE INDEX activities_custom_name ON laurel.activities (user_id, lower(name)) WHERE user_id IS NOT NULL;

-- Logs. (user_id, id) is the idempotency key; a deleted log keeps its key so a late retry cannot log it again.
-- requested_at is the `at` the client sent (NULL when the server chose it): it is part of the content a
-- retry is compared with. response is the first answer, replayed to retries.
CREATE TABLE laurel.logs (
    user_id       bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    id            text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    seq           bigint      GENERATED ALWAYS AS IDENTITY,
    activity_id   text        NOT NULL REFERENCES laurel.activities (id),
    amount        integer     NOT NULL CHECK (amount BETWEEN 1 AND 100000),
    at            timestamptz NOT NULL,
    day           date        NOT NULL,
    note          text,
    requested_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    deleted_at    timestamptz,
    response      json,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX logs_user_at ON laurel.logs (user_id, at DESC, seq DESC) WHERE deleted_at IS NULL;
CREATE INDEX logs_user_day ON laurel.logs (user_id, day) WHERE deleted_at IS NULL;

-- An achievement is unlocked at most once per user: the primary key makes a second unlock impossible,
-- whatever the number of connections, retries or server instances.
CREATE TABLE laurel.unlocks (
    user_id         bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    achievement_id  text        NOT NULL,
    unlocked_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, achievement_id)
);

-- Pushes worth keeping (UNLOCK, LEVEL, STREAK, CHALLENGE, SUBSCRIPTION), stored before they are sent.
CREATE TABLE laurel.pushes (
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    seq         bigint      NOT NULL,
    kind        text        NOT NULL,
    data        json        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, seq)
);

-- Figures derived from the facts above, kept so that admin views and PROFILE need not recompute them.
-- They can always be rebuilt from logs, settings and unlocks.
CREATE TABLE laurel.progress (
    user_id         bigint      PRIMARY KEY REFERENCES laurel.users ON DELETE CASCADE,
    xp              bigint      NOT NULL DEFAULT 0,
    level           integer     NOT NULL DEFAULT 1,
    max_level       integer     NOT NULL DEFAULT 1,
    current_streak  integer     NOT NULL DEFAULT 0,
    longest_streak  integer     NOT NULL DEFAULT 0,
    state           jsonb,
    updated_at      timestamptz NOT NULL DEFAULT now()
);
