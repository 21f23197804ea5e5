-- Keys a distributed PostgreSQL (Citus) can keep, with the user's id as the distribution column (docs/scaling.md).
-- The rules, checked against a migrated database by Tests/LaurelIntegrationTests/Schema/DistributionRulesTests.swift:
--   - a table whose rows are a user's has the user's id in a NOT NULL column `user_id` (in laurel.users, `id`), and
--     every primary key and unique index of it includes that column: each shard then checks its keys alone;
--   - a foreign key between two such tables goes through the user's id (a user's row only ever names that user's
--     rows); one from a user's row to a shared table (a catalog, the marketplace) is fine, one the other way is not;
--   - shared tables (catalogs, listings, the server's own) hold no user's id column.

-- Names stay unique case-insensitively, claimed in a table keyed by the folded name; laurel.users keeps a plain index
-- for finding a user by name.
CREATE TABLE laurel.user_names (
    name_key  text  PRIMARY KEY
);
INSERT INTO laurel.user_names (name_key) SELECT lower(name COLLATE "und-x-icu") FROM laurel.users;
DROP INDEX laurel.users_name_key;
CREATE INDEX users_name ON laurel.users (lower(name COLLATE "und-x-icu"));

-- Keys with the user: tokens (AUTH finds a token by its digest, the SHA-256 of 244 random bits), settings,
-- subscriptions and templates. The old indexes on (user_id ...) are the new primary keys' prefixes.
ALTER TABLE laurel.tokens DROP CONSTRAINT tokens_pkey, ADD PRIMARY KEY (user_id, digest);
DROP INDEX laurel.tokens_user;
CREATE INDEX tokens_digest ON laurel.tokens (digest);

ALTER TABLE laurel.settings DROP CONSTRAINT settings_pkey, ADD PRIMARY KEY (user_id, id);
DROP INDEX laurel.settings_user;

ALTER TABLE laurel.subscriptions DROP CONSTRAINT subscriptions_pkey, ADD PRIMARY KEY (user_id, id);
DROP INDEX laurel.subscriptions_user;

ALTER TABLE laurel.templates DROP CONSTRAINT templates_pkey, ADD PRIMARY KEY (user_id, id);

-- Users' custom activities leave laurel.activities, which keeps the catalog's built-ins alone (like
-- laurel.achievements). A log's or template's activity is the catalog's or one of the user's own custom ones, which no
-- single foreign key can say: the rules check it when they decide the write (UserProgress.liveActivity), and
-- laurel.commit_changes stores only what they decided.
CREATE TABLE laurel.custom_activities (
    user_id     bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    id          text        NOT NULL,
    name        text        NOT NULL,
    unit        text        NOT NULL CHECK (unit IN ('reps', 'seconds', 'minutes', 'sessions', 'times')),
    icon        text,
    created_at  timestamptz NOT NULL DEFAULT now(),
    -- Soft-deleted, so that their logs, and their names, survive.
    deleted_at  timestamptz,
    PRIMARY KEY (user_id, id)
);
CREATE UNIQUE INDEX custom_activities_name ON laurel.custom_activities (user_id, lower(name COLLATE "und-x-icu"));
INSERT INTO laurel.custom_activities (user_id, id, name, unit, icon, created_at, deleted_at)
SELECT user_id, id, name, unit, icon, created_at, deleted_at FROM laurel.activities WHERE user_id IS NOT NULL;

ALTER TABLE laurel.logs DROP CONSTRAINT logs_activity_id_fkey;
ALTER TABLE laurel.templates DROP CONSTRAINT templates_activity_id_fkey;
DELETE FROM laurel.activities WHERE user_id IS NOT NULL;
DROP INDEX laurel.activities_custom_name;
ALTER TABLE laurel.activities DROP CONSTRAINT activities_check;
ALTER TABLE laurel.activities DROP COLUMN user_id, DROP COLUMN deleted_at;

-- A listing is the marketplace's row, shared by every user who browses it; its author is one of its attributes.
-- It goes with its author through laurel.delete_user_by_id instead of a foreign key to the author's row.
ALTER TABLE laurel.listings DROP CONSTRAINT listings_author_id_fkey;
