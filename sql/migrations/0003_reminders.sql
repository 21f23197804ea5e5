-- Reminders the app showed the user (rules.md, "Reminder streak"). A reminder is a fact of its own, stored like a
-- reported event under the client's idempotency key; its window is the setting in force on its local day, fixed
-- when it is stored. `answered` says whether a live log answered it when it was stored: logs stored later answer it
-- as sessions count them, and a recomputation from every fact judges it again from the logs alone.
ALTER TABLE laurel.settings
    ADD COLUMN reminder_window_minutes smallint NOT NULL DEFAULT 30 CHECK (reminder_window_minutes BETWEEN 5 AND 240);

CREATE TABLE laurel.reminders (
    user_id         bigint      NOT NULL,
    id              text        NOT NULL CHECK (length(id) BETWEEN 1 AND 128),
    seq             bigint      GENERATED ALWAYS AS IDENTITY,
    at              timestamptz NOT NULL,
    day             date        NOT NULL,
    window_minutes  smallint    NOT NULL CHECK (window_minutes BETWEEN 5 AND 240),
    answered        boolean     NOT NULL,
    requested_at    timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now(),
    response        json        NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX reminders_user_seq ON laurel.reminders (user_id, seq);

-- The newest reminder a snapshot counts.
ALTER TABLE laurel.progress_snapshots
    ADD COLUMN last_reminder_seq bigint NOT NULL DEFAULT 0;
