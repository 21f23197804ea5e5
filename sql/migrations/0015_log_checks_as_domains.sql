-- The checks of `laurel.logs` (an amount of 1 to 100,000, an hour of the day, an id of 1 to 128 characters) as
-- domains instead of the table's CHECK constraints. A table's checks are read again from their stored text and
-- planned in every statement that writes the table, so every commit batch paid for three (some 75,000
-- instructions of PostgreSQL's, 5 % of a batch of one LOG: scripts/bench-commit); a domain's checks are read once
-- per connection and kept in its type cache. Same checks, same error (check_violation), names of their own.
CREATE DOMAIN laurel.log_amount AS integer CHECK (VALUE BETWEEN 1 AND 100000);
CREATE DOMAIN laurel.local_hour AS smallint CHECK (VALUE BETWEEN 0 AND 23);
CREATE DOMAIN laurel.fact_id AS text CHECK (length(VALUE) BETWEEN 1 AND 128);

ALTER TABLE laurel.logs
    DROP CONSTRAINT logs_amount_check,
    DROP CONSTRAINT logs_local_hour_check,
    DROP CONSTRAINT logs_id_check;
ALTER TABLE laurel.logs
    ALTER COLUMN amount TYPE laurel.log_amount,
    ALTER COLUMN local_hour TYPE laurel.local_hour,
    ALTER COLUMN id TYPE laurel.fact_id;
