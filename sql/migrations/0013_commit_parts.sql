-- One part of a batch of decided writes, as laurel.store_changes and laurel.store_change_extras read it: the fields
-- are named once, here, for both. The server sends a batch as an array of these in binary format, every field in
-- this order (its CommitPartField lists them, and a test compares the two).
--
-- The fields (null where a part has none):
--   n                        the part's place in the batch
--   user_id, version         the user, and the version the write was decided against
--   reloads, rebuilt         the write changed more than facts, unlocks and challenges / recomputed the running state
--   fact_kind ... response   a new log, lesson completion, event or reminder (fact_kind 'log', 'lesson', 'event' or
--                            'reminder', with window_minutes and answered), with the first answer replayed to
--                            retries (a JSON object, stored byte for byte as sent)
--   deleted_log              a log id to mark deleted
--   settings_*               new settings in force from settings_day (zone, rest day, vacation, weekly goal,
--                            reminder window)
--   custom_activity          a custom activity created or changed: {"id","name","unit","icon","deleted"}
--   templates                templates created or changed, deleted_templates and deleted_unlock_prefixes;
--                            installed_listing: the marketplace listing a new template was installed from
--   unlocks, decided_us      achievements unlocked, and the moment of the decision (unlocks, completions, choices)
--   chosen, completed        challenges chosen now (rows) and stored ones completed now ({"period","period_start","slot"})
--   push_kinds, push_data    pushes to store with the user's next seqs, in this order (push_data: their objects)
--   has_figures, xp ...      the figures after the write (goal_met_week: the Monday of the week last pushed as met)
--   allowance, allowance_us  the log allowance after the write
--   snapshot                 the running state after the write (JSON text), when it was recomputed
--   scores                   board scores of days before the latest to move: [{"day","board","delta","reached_us"}]
--                            (a rise also sets reached_at)
--   latest_score_day, latest_scores
--                            the latest day's scores after the write, when they changed: {"BOARD": [score, reached_us]}
--   announce                 what the write adds to a session holding the version before, for the other instances
--                            (handed back untouched with a committed part, for laurel.commit_changes to announce)
--
CREATE TYPE laurel.commit_part AS (
    n integer, user_id bigint, version bigint, reloads boolean, rebuilt boolean, fact_kind text, fact_id text,
    activity text, amount integer, lesson text, category text, event text, at_us bigint, day date,
    local_hour smallint, note text, requested_us bigint, response json, deleted_log text, settings_zone text,
    settings_rest smallint, settings_vacation boolean, settings_goal smallint, settings_window smallint,
    settings_leaderboards boolean, settings_day date, window_minutes smallint, answered boolean,
    custom_activity json, templates json, deleted_templates uuid[], deleted_unlock_prefixes text[],
    installed_listing uuid, unlocks text[], decided_us bigint, chosen json, completed json, push_kinds text[],
    push_data json, has_figures boolean, xp bigint, level integer, max_level integer, current_streak integer,
    longest_streak integer, streak_freezes smallint, streak_at_risk boolean, last_active_day date,
    streak_holds_through date, challenge_xp integer, unlocked integer, total_logs integer, active_days integer,
    goal_met_week date, allowance double precision, allowance_us bigint, snapshot text, scores json,
    latest_score_day date, latest_scores json, announce json
);
