-- Achievement templates: a premium user's own milestones for one activity. Tiers are kept as the JSON list the
-- user gave ([{"tier","target","label"?,"icon"?,"window_minutes"?}]); the generated achievements follow from
-- them, and their unlocks live in laurel.unlocks under ids starting 'tpl.<template id>.'.
CREATE TABLE laurel.templates (
    id               uuid        PRIMARY KEY DEFAULT gen_random_uuid(),
    user_id          bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    activity_id      text        NOT NULL REFERENCES laurel.activities (id),
    name             text        NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 64),
    type             text        NOT NULL CHECK (type IN ('volume', 'daily', 'weekly', 'streak', 'speed')),
    tiers            json        NOT NULL,
    active           boolean     NOT NULL DEFAULT true,
    inactive_reason  text        CHECK (inactive_reason IN ('activity_deleted', 'deactivated')),
    created_at       timestamptz NOT NULL DEFAULT now(),
    updated_at       timestamptz NOT NULL DEFAULT now(),
    CHECK (active = (inactive_reason IS NULL))
);
CREATE INDEX templates_user ON laurel.templates (user_id, created_at);
