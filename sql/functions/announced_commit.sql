-- One committed write as laurel.announce_commits tells the instances of it: [user_id, version, last_seq], or, for a
-- write that announces what it added (laurel.store_changes, `announce`), [user_id, version, last_seq, fact_seq, change].
CREATE OR REPLACE FUNCTION laurel.announced_commit(user_id bigint, version bigint, last_seq bigint, fact_seq bigint, change json)
RETURNS json
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN change IS NULL THEN json_build_array(user_id, version, last_seq)
                ELSE json_build_array(user_id, version, last_seq, fact_seq, change) END
$$;
