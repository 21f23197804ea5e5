-- The weekly goal streak (rules.md, "Weekly goal streak"). The goal is a setting with history, like the rest day:
-- a week is judged by the goal in force on its last day. The latest week whose goal was met is a figure kept with
-- the others, so that its GOAL push is stored once a week whichever instance evaluates it.
ALTER TABLE laurel.settings
    ADD COLUMN weekly_goal smallint NOT NULL DEFAULT 3 CHECK (weekly_goal BETWEEN 1 AND 7);

-- The Monday of the latest ISO week (in the user's zone) that met its weekly goal and was pushed.
ALTER TABLE laurel.progress
    ADD COLUMN goal_met_week date;
