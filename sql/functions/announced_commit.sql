-- One committed write as laurel.announce_commits tells the instances of it: [user_id, version, last_seq], or, for a
-- write that announces what it added (laurel.store_changes, `announce`), [user_id, version, last_seq, fact_seq, change].
-- The JSON is written as text, the change put in as the server wrote it: built as `json` the change was parsed once
-- more on its way in (migration 0014).
--
-- STABLE, as text concatenation is: PostgreSQL inlines a SQL function into its caller's expression only when it is
-- declared no less volatile than its body. Declared IMMUTABLE it was run as a query of its own for every part of
-- every batch (laurel.commit_changes), parsed and planned again in each batch: some 40 µs a batch of eight.
DROP FUNCTION IF EXISTS laurel.announced_commit(bigint, bigint, bigint, bigint, json);
CREATE OR REPLACE FUNCTION laurel.announced_commit(user_id bigint, version bigint, last_seq bigint, fact_seq bigint, change text)
RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN change IS NULL THEN '[' || user_id || ',' || version || ',' || last_seq || ']'
                ELSE '[' || user_id || ',' || version || ',' || last_seq || ',' || coalesce(fact_seq::text, 'null') || ',' || change || ']'
           END
$$;
