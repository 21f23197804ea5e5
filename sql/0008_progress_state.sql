-- The engine's state is written at every evaluation and only ever read back whole: keep it as json (stored as
-- sent, no parse into jsonb), and number its versions so a server that holds the newest in memory need not
-- read it again.
ALTER TABLE laurel.progress ALTER COLUMN state TYPE json USING state::json;
ALTER TABLE laurel.progress ADD COLUMN state_version bigint NOT NULL DEFAULT 0;
