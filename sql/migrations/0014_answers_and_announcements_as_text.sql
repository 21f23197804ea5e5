-- A fact's first answer (replayed to retries), the latest day's scores and a write's announced change are JSON that
-- the server writes and reads back; PostgreSQL only keeps or passes them on. As `json` each was parsed on its way
-- in, to be checked (a commit part's fields too, in binary format): three parses of some hundreds of bytes for every
-- LOG, about 7 % of what a LOG costs PostgreSQL in a batch (scripts/bench-commit). As `text` they are kept byte for
-- byte as before, unparsed; the few readers that look inside (the view laurel.day_scores) cast them.
--
-- The view reads the column changed here; it is dropped first and made again from sql/views with the others.
DROP VIEW IF EXISTS laurel.day_scores CASCADE;

ALTER TYPE laurel.commit_part
    ALTER ATTRIBUTE response TYPE text,
    ALTER ATTRIBUTE latest_scores TYPE text,
    ALTER ATTRIBUTE announce TYPE text;

ALTER TABLE laurel.logs ALTER COLUMN response TYPE text;
ALTER TABLE laurel.lesson_completions ALTER COLUMN response TYPE text;
ALTER TABLE laurel.reported_events ALTER COLUMN response TYPE text;
ALTER TABLE laurel.reminders ALTER COLUMN response TYPE text;
ALTER TABLE laurel.progress ALTER COLUMN latest_scores TYPE text;
