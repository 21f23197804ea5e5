-- One committed write as laurel.announce_commits tells the instances of it: [user_id, version, last_seq], or, for a
-- write that announces what it added (laurel.store_changes, `announce`), [user_id, version, last_seq, fact_seq, change].
--
-- STABLE, as json_build_array is: PostgreSQL inlines a SQL function into its caller's expression only when it is
-- declared no less volatile than its body. Declared IMMUTABLE it was run as a query of its own for every part of
-- every batch (laurel.commit_changes), parsed and planned again in each batch: some 40 µs a batch of eight.
CREATE OR REPLACE FUNCTION laurel.announced_commit(user_id bigint, version bigint, last_seq bigint, fact_seq bigint, change json)
RETURNS json
LANGUAGE sql STABLE AS $$
    SELECT CASE WHEN change IS NULL THEN json_build_array(user_id, version, last_seq)
                ELSE json_build_array(user_id, version, last_seq, fact_seq, change) END
$$;
