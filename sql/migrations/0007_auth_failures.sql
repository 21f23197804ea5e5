-- Failed AUTHs per source address (FailedAuthAllowance in the core): the failures left when one was last spent,
-- and when. AUTHs checked against a source's allowance take turns on it, across instances, through an advisory lock
-- of the source's (PostgresStore.guessingLockClass, hashtext of the address), held while each is decided; a row
-- exists only once a failure was spent. Rows whose allowance is whole again are deleted by the servers now and
-- then. Not a per-user table: a source is anyone's.
CREATE TABLE laurel.auth_failures (
    source inet PRIMARY KEY,
    available double precision,
    spent_at timestamptz,
    CHECK ((available IS NULL) = (spent_at IS NULL))
);
