-- Laurel's tables and indexes. Functions and views are not here: each lives in a file of its own under
-- sql/functions and sql/views and is applied again whenever its text changes. sql/schema.sql is the whole schema
-- as a freshly migrated database has it (a test compares the two).
--
-- What the tables hold: the user's facts (logs, lesson completions, reported events, settings with their history,
-- subscriptions, custom activities, templates), what the rules derived from them once and for good (unlocks,
-- chosen and completed challenges, stored pushes), and the figures derived from them (laurel.progress), which can
-- always be recomputed from the facts. SQL stores and checks; the rules live in the server's pure core.

CREATE SCHEMA IF NOT EXISTS laurel;

CREATE TABLE laurel.users (
    id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text        NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 64 AND name !~ '[[:cntrl:]]'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    last_seen_at  timestamptz,
    -- Ever started a trial: the trial is once per user, ever, even after the subscription rows are gone.
    trial_used    boolean     NOT NULL DEFAULT false
);
-- Names are unique and found case-insensitively for every script: ICU's root lowercasing, which is also what the
-- server uses (lower() with the C locale would leave 'Ü' alone).
CREATE UNIQUE INDEX users_name_key ON laurel.users (lower(name COLLATE "und-x-icu"));

-- Only a SHA-256 digest of each token is kept; the token itself is shown once.
CREATE TABLE laurel.tokens (
    digest      bytea       PRIMARY KEY,
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    created_at  timestamptz NOT NULL DEFAULT now(),
    revoked_at  timestamptz
);
CREATE INDEX tokens_user ON laurel.tokens (user_id);

-- One row a user that every write of the user moves on, in the statement that stores the write
-- (laurel.commit_changes): the version of everything the rules read, the last push seq, the figures after the
-- write and the log allowance. A write decided at a version is stored only while the row is still at it.
CREATE TABLE laurel.progress (
    user_id               bigint           PRIMARY KEY REFERENCES laurel.users ON DELETE CASCADE,
    version               bigint           NOT NULL DEFAULT 0,
    -- The version of the last write that changed more than facts, unlocks and challenges (settings, activities,
    -- templates, a deletion, the subscription): a session at an earlier version loads the user again instead of
    -- adding what was committed since.
    reload_version        bigint           NOT NULL DEFAULT 0,
    -- The version of the last write after which the running state could not be derived from an earlier snapshot
    -- by adding facts (a deletion, a settings change reaching into walked days).
    rebuilt_version       bigint           NOT NULL DEFAULT 0,
    -- The last push sequence number handed out.
    last_seq              bigint           NOT NULL DEFAULT 0,
    xp                    bigint           NOT NULL DEFAULT 0,
    level                 integer          NOT NULL DEFAULT 1,
    max_level             integer          NOT NULL DEFAULT 1,
    -- The streak as the user last saw it.
    current_streak        integer          NOT NULL DEFAULT 0,
    longest_streak        integer          NOT NULL DEFAULT 0,
    streak_freezes        smallint         NOT NULL DEFAULT 0,
    streak_at_risk        boolean          NOT NULL DEFAULT false,
    last_active_day       date,
    -- The last local day through which current_streak holds without new activity (NULL: for good).
    streak_holds_through  date,
    challenge_xp          integer          NOT NULL DEFAULT 0,
    -- Unlocks worth XP: of achievements listed for the user now.
    unlocked              integer          NOT NULL DEFAULT 0,
    total_logs            integer          NOT NULL DEFAULT 0,
    active_days           integer          NOT NULL DEFAULT 0,
    -- New facts the user could store at once when the allowance was last spent, and when (NULL: a full burst).
    log_allowance         double precision,
    log_allowance_at      timestamptz,
    updated_at            timestamptz      NOT NULL DEFAULT now()
);

-- The running state of a user's facts as of one version, so that a new session adds the facts stored after it
-- instead of reading every fact. Written when a session ends and by writes that recompute it.
CREATE TABLE laurel.progress_snapshots (
    user_id          bigint  PRIMARY KEY REFERENCES laurel.users ON DELETE CASCADE,
    version          bigint  NOT NULL,
    last_log_seq     bigint  NOT NULL,
    last_lesson_seq  bigint  NOT NULL,
    last_event_seq   bigint  NOT NULL,
    state            json    NOT NULL
);

-- Settings with history: each change is a full snapshot in force from effective_day (the user's local date on
-- which it was made) on. Rest days and vacations are judged by the snapshot in force on each day.
CREATE TABLE laurel.settings (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    changed_at     timestamptz NOT NULL DEFAULT now(),
    effective_day  date        NOT NULL,
    time_zone      text        NOT NULL,
    rest_day       smallint    CHECK (rest_day BETWEEN 1 AND 7),   -- ISO weekday, 1 = Monday
    vacation       boolean     NOT NULL DEFAULT false
);
CREATE INDEX settings_user ON laurel.settings (user_id, id DESC);

-- Premium periods: a trial (14 days, once) or an operator's grant (with or without an end). announced_end is set
-- once, by whichever instance notices the end first.
CREATE TABLE laurel.subscriptions (
    id             bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id        bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    kind           text        NOT NULL CHECK (kind IN ('trial', 'grant')),
    starts_at      timestamptz NOT NULL DEFAULT now(),
    ends_at        timestamptz,
    revoked_at     timestamptz,
    announced_end  boolean     NOT NULL DEFAULT false,
    CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX subscriptions_user ON laurel.subscriptions (user_id);
-- What the expiry watcher of every instance looks at twice a second: only ends still to be announced.
CREATE INDEX subscriptions_end_to_announce ON laurel.subscriptions (ends_at)
 WHERE NOT announced_end AND revoked_at IS NULL AND ends_at IS NOT NULL;

-- Activities: the catalog's built-ins (user_id NULL, id = the catalog's slug) and users' custom ones (id = a UUID).
-- Custom activities are soft-deleted so their logs, and their names, survive.
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
CREATE UNIQUE INDEX activities_custom_name ON laurel.activities (user_id, lower(name COLLATE "und-x-icu")) WHERE user_id IS NOT NULL;

-- The tables of a user's facts and of what was decided from them (logs, lesson_completions, reported_events,
-- unlocks, pushes, challenges) have no foreign key to laurel.users: their rows are stored only by a write that moved
-- the user's progress row on in the same statement (so the user exists, and its row is locked), and
-- laurel.delete_user_by_id removes the progress row first (waiting for such a write) and these rows after it. A
-- foreign key would lock the user's row once more for every row stored: a WAL record per log.

-- Logs. (user_id, id) is the idempotency key; a deleted log keeps its key so that a late retry cannot log it
-- again. day and local_hour are read in the user's zone at logging time and never move. requested_at is the `at`
-- the client sent (NULL when the server chose it): part of what a retry is compared with. response is the first
-- answer, replayed to retries. seq orders a user's logs as they were stored.
CREATE TABLE laurel.logs (
    user_id       bigint      NOT NULL,
    id            text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    seq           bigint      GENERATED ALWAYS AS IDENTITY,
    activity_id   text        NOT NULL REFERENCES laurel.activities (id),
    amount        integer     NOT NULL CHECK (amount BETWEEN 1 AND 100000),
    at            timestamptz NOT NULL,
    day           date        NOT NULL,
    local_hour    smallint    NOT NULL CHECK (local_hour BETWEEN 0 AND 23),
    note          text,
    requested_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    deleted_at    timestamptz,
    response      json        NOT NULL,
    PRIMARY KEY (user_id, id)
);
-- A session adds the logs stored after the newest one it counts.
CREATE INDEX logs_user_seq ON laurel.logs (user_id, seq) WHERE deleted_at IS NULL;
-- LOGS pages, newest first; the logs around a new one for speed windows.
CREATE INDEX logs_user_at ON laurel.logs (user_id, at DESC, seq DESC) WHERE deleted_at IS NULL;

-- Lesson completions. (user_id, id) is the request's idempotency key; a lesson completed twice is stored twice
-- but counts once.
CREATE TABLE laurel.lesson_completions (
    user_id       bigint      NOT NULL,
    id            text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    seq           bigint      GENERATED ALWAYS AS IDENTITY,
    lesson_id     text        NOT NULL,
    category      text        NOT NULL,
    at            timestamptz NOT NULL,
    day           date        NOT NULL,
    requested_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    response      json        NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX lesson_completions_user_seq ON laurel.lesson_completions (user_id, seq);

-- Events a client reports (`share`, `invite`); they count for achievements but make no day active.
CREATE TABLE laurel.reported_events (
    user_id       bigint      NOT NULL,
    id            text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    seq           bigint      GENERATED ALWAYS AS IDENTITY,
    name          text        NOT NULL,
    at            timestamptz NOT NULL,
    day           date        NOT NULL,
    requested_at  timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    response      json        NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX reported_events_user_seq ON laurel.reported_events (user_id, seq);

-- Achievement templates: a premium user's own milestones for one activity. Tiers are kept as the JSON list the
-- user gave ([{"tier","target","label"?,"icon"?,"window_minutes"?}]); the generated achievements follow from them,
-- and their unlocks live in laurel.unlocks under ids starting 'tpl.<template id>.'.
CREATE TABLE laurel.templates (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    activity_id      text        NOT NULL REFERENCES laurel.activities (id),
    name             text        NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 64),
    type             text        NOT NULL CHECK (type IN ('volume', 'daily', 'weekly', 'streak', 'speed')),
    tiers            json        NOT NULL,
    active           boolean     NOT NULL DEFAULT true,
    inactive_reason  text        CHECK (inactive_reason IN ('activity_deleted', 'deactivated')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (active = (inactive_reason IS NULL))
);
CREATE INDEX templates_user ON laurel.templates (user_id, created_at);

-- An achievement is unlocked at most once per user: the primary key makes a second unlock impossible, whatever the
-- number of connections, retries or server instances.
CREATE TABLE laurel.unlocks (
    user_id         bigint      NOT NULL,
    achievement_id  text        NOT NULL,
    unlocked_at     timestamptz NOT NULL,
    PRIMARY KEY (user_id, achievement_id)
);

-- Pushes worth keeping (UNLOCK, LEVEL, STREAK, CHALLENGE, SUBSCRIPTION), stored before they are sent.
CREATE TABLE laurel.pushes (
    user_id     bigint      NOT NULL,
    seq         bigint      NOT NULL,
    kind        text        NOT NULL,
    data        json        NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, seq)
);

-- Daily and weekly challenges. A period's challenges are chosen the first time something needs them and stored
-- here, one row a slot; the primary key makes the first choice the only one. Progress is not stored: it is counted
-- from the period's live facts. completed_at is set by the write of the fact that completed the challenge and
-- never cleared (its XP is then the user's for good).
CREATE TABLE laurel.challenges (
    user_id       bigint      NOT NULL,
    period        text        NOT NULL CHECK (period IN ('daily', 'weekly')),
    period_start  date        NOT NULL,
    slot          smallint    NOT NULL CHECK (slot >= 0),
    kind          text        NOT NULL,
    title         text        NOT NULL,
    target        integer     NOT NULL CHECK (target > 0),
    xp            integer     NOT NULL CHECK (xp >= 0),
    activity_id   text,
    hour          smallint,
    chosen_at     timestamptz NOT NULL,
    completed_at  timestamptz,
    PRIMARY KEY (user_id, period, period_start, slot)
);

-- The running catalog's achievements, refreshed by every server at start, so operators can name them in SQL.
CREATE TABLE laurel.achievements (
    id          text    PRIMARY KEY,
    name        text    NOT NULL,
    category    text    NOT NULL,
    tier        text    NOT NULL,
    target      integer NOT NULL,
    secret      boolean NOT NULL DEFAULT false,
    catalog     text    NOT NULL
);

-- The limits the operator configured, for what SQL answers by itself (the template limit of a SUBSCRIPTION
-- document, in pushes an operator's function stores too). laurel serve writes them at start; instances sharing a
-- database are meant to run with the same limits.
CREATE TABLE laurel.server_limits (
    only_row        boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    template_limit  integer NOT NULL CHECK (template_limit >= 0)
);
INSERT INTO laurel.server_limits (template_limit) VALUES (100);
