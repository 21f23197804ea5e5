-- A commit part's challenges chosen now as arrays of their columns, one element a challenge, where they were a `json`
-- list. laurel.store_challenge_changes took the list apart into rows with `json_to_recordset`, parsing its text again
-- after the server had parsed it once to check it on the way in: a user's first LOG of a day, which chooses four
-- challenges, cost PostgreSQL some 134,000 instructions for the two parses, of some 512,000 for its whole part
-- (scripts/bench-commit --challenges). Arrays of built-in types are read field by field in binary format and taken
-- apart with `unnest`. (`jsonb`, parsed once, was tried: parsing into it cost what the second parse saved.)
--
--   chosen_period ... chosen_completed
--                            the challenges chosen now, element by element: period ('daily', 'weekly'), the period's
--                            first day, slot, kind, title, target, XP, activity (NULL for none), hour (NULL for none),
--                            and whether the write that chose it also completed it
ALTER TYPE laurel.commit_part
    DROP ATTRIBUTE chosen,
    ADD ATTRIBUTE chosen_period text[],
    ADD ATTRIBUTE chosen_start date[],
    ADD ATTRIBUTE chosen_slot smallint[],
    ADD ATTRIBUTE chosen_kind text[],
    ADD ATTRIBUTE chosen_title text[],
    ADD ATTRIBUTE chosen_target integer[],
    ADD ATTRIBUTE chosen_xp integer[],
    ADD ATTRIBUTE chosen_activity text[],
    ADD ATTRIBUTE chosen_hour smallint[],
    ADD ATTRIBUTE chosen_completed boolean[];
