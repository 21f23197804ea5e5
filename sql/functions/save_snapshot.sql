-- Keeps a user's running state as of `p_version`, so that a later session adds the facts stored after it instead of
-- reading every fact. Nothing changes when a snapshot as new is stored already, or when a write since recomputed the
-- state (laurel.progress.rebuilt_version): facts added to this one would not give the state then.
DROP FUNCTION IF EXISTS laurel.save_snapshot(bigint, bigint, bigint, bigint, bigint, text);
CREATE OR REPLACE FUNCTION laurel.save_snapshot(
    p_user bigint, p_version bigint, p_last_log_seq bigint, p_last_lesson_seq bigint, p_last_event_seq bigint,
    p_last_reminder_seq bigint, p_state text
) RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO laurel.progress_snapshots AS s (user_id, version, last_log_seq, last_lesson_seq, last_event_seq, last_reminder_seq, state)
    SELECT p_user, p_version, p_last_log_seq, p_last_lesson_seq, p_last_event_seq, p_last_reminder_seq, p_state::json
      FROM laurel.progress g
     WHERE g.user_id = p_user AND g.rebuilt_version <= p_version AND g.version >= p_version
    ON CONFLICT (user_id) DO UPDATE
       SET version = EXCLUDED.version, last_log_seq = EXCLUDED.last_log_seq, last_lesson_seq = EXCLUDED.last_lesson_seq,
           last_event_seq = EXCLUDED.last_event_seq, last_reminder_seq = EXCLUDED.last_reminder_seq, state = EXCLUDED.state
     WHERE s.version < EXCLUDED.version;
    RETURN FOUND;
END $$;
