-- Failed AUTHs per source address (FailedAuthAllowance in the core): the failures left when one was last spent,
-- and when. Every AUTH checked against a source's allowance locks its row until that AUTH is decided: alone when its
-- token is unknown (it may spend a failure), so instances take turns on one source's guesses; shared when it is
-- valid (it spends nothing). Rows whose allowance is whole again are deleted by the servers now and then. Not a
-- per-user table: a source is anyone's.
CREATE TABLE laurel.auth_failures (
    source inet PRIMARY KEY,
    available double precision,
    spent_at timestamptz,
    CHECK ((available IS NULL) = (spent_at IS NULL))
);
