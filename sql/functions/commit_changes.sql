-- Commits a batch of decided writes of different users (laurel.store_changes) in the caller's transaction: one
-- round trip and one WAL flush for all. One row per part of `batch`, in order: the outcome of laurel.store_changes,
-- or 'failed' with `detail`, plus `committed_us`, the transaction's time (the pushes' time). Committed writes are
-- announced to every instance at the end (laurel.announce_commits, delivered on commit) as 'written': the sending
-- instance's sessions decided them and keep what they decided, so it passes over its own.
--
-- A batch is announced only where another instance may hear it: a connection of an instance (its setting
-- `laurel.instance`) announces nothing while no other instance is registered (laurel.register_instance; an instance
-- alone had sent a notification with every batch, which its own listener dropped, and every notifying commit holds
-- PostgreSQL's one lock on the notification queue until it ends). The check holds the registry's lock, shared, to the
-- transaction's end: an instance registering meanwhile waits for this commit, and reads it, or is seen by it. A
-- connection of no instance always announces.
--
-- Not isolated (the default), the batch is stored by one call of laurel.store_changes, and anything that raises
-- fails the whole statement. The caller then runs the batch again isolated: each part stored alone in a block of
-- its own (a subtransaction) that rolls back alone, a unique violation as 'stale' (a writer elsewhere stored the
-- same unlock or name first), anything else as 'failed'. Subtransactions cost, and more than 64 in one transaction
-- slow every other transaction's snapshots, so only a failed batch pays for them.
DROP FUNCTION IF EXISTS laurel.commit_changes(jsonb, boolean);
DROP FUNCTION IF EXISTS laurel.commit_changes(json, boolean);
CREATE OR REPLACE FUNCTION laurel.commit_changes(batch laurel.commit_part[], isolated boolean DEFAULT false)
RETURNS TABLE (outcome text, new_version bigint, new_last_seq bigint, fact_seq bigint, committed_us bigint, detail text)
LANGUAGE plpgsql AS $$
DECLARE
    part laurel.commit_part;
    part_user bigint;
    announced text;
    -- [user_id, version, last_seq] of each committed part ([user_id, version, last_seq, fact_seq, change] when the
    -- part announces its change).
    commits text[] := '{}';
    instance text := nullif(current_setting('laurel.instance', true), '');
    announcing boolean := true;
    -- The registry's lock (7416, 1), taken in an assignment: plpgsql evaluates one without a query of its own.
    registry_locked text;
BEGIN
    committed_us := (extract(epoch FROM now()) * 1000000)::bigint;
    detail := NULL;
    IF instance IS NOT NULL THEN
        registry_locked := pg_advisory_xact_lock_shared(7416, 1)::text;
        announcing := EXISTS (SELECT FROM laurel.instances i WHERE i.id <> instance);
    END IF;
    IF NOT isolated THEN
        FOR outcome, new_version, new_last_seq, fact_seq, part_user, announced IN SELECT * FROM laurel.store_changes(batch) LOOP
            IF outcome = 'committed' AND announcing THEN
                commits := commits || laurel.announced_commit(part_user, new_version, new_last_seq, fact_seq, announced);
            END IF;
            RETURN NEXT;
        END LOOP;
    ELSE
        FOREACH part IN ARRAY batch LOOP
            detail := NULL;
            BEGIN
                SELECT s.outcome, s.new_version, s.new_last_seq, s.fact_seq, s.part_user, s.announced
                  INTO outcome, new_version, new_last_seq, fact_seq, part_user, announced
                  FROM laurel.store_changes(ARRAY[part]) s;
            EXCEPTION
                WHEN unique_violation THEN
                    outcome := 'stale';
                    detail := SQLERRM;
                WHEN OTHERS THEN
                    outcome := 'failed';
                    detail := SQLSTATE || ': ' || SQLERRM;
            END;
            IF outcome = 'committed' THEN
                IF announcing THEN
                    commits := commits || laurel.announced_commit(part_user, new_version, new_last_seq, fact_seq, announced);
                END IF;
            ELSE
                new_version := NULL;
                new_last_seq := NULL;
                fact_seq := NULL;
            END IF;
            RETURN NEXT;
        END LOOP;
    END IF;
    IF announcing THEN
        PERFORM laurel.announce_commits(commits, 'written');
    END IF;
END $$;
