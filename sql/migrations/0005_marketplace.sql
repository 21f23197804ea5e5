-- The template marketplace (rules.md, "Template marketplace"). A listing is a snapshot of a premium user's template
-- (published again, the same listing takes the template as it is then); it goes with its author, or when the author
-- or an operator unpublishes it. Installing copies it into the installer's templates (which remember where they
-- came from, `templates.listing_id`); each installer counts once in `installs`, whatever they delete and install
-- again.
ALTER TABLE laurel.templates ADD COLUMN listing_id uuid;

CREATE TABLE laurel.listings (
    id             uuid        PRIMARY KEY,
    author_id      bigint      NOT NULL REFERENCES laurel.users ON DELETE CASCADE,
    template_id    uuid        NOT NULL,
    name           text        NOT NULL,
    type           text        NOT NULL,
    tiers          json        NOT NULL,
    activity_name  text,
    description    text        NOT NULL CHECK (length(description) <= 280),
    installs       integer     NOT NULL DEFAULT 0,
    published_at   timestamptz NOT NULL,
    updated_at     timestamptz NOT NULL,
    UNIQUE (author_id, template_id)
);
CREATE INDEX listings_new ON laurel.listings (published_at DESC, id DESC);
CREATE INDEX listings_popular ON laurel.listings (installs DESC, published_at DESC, id DESC);

CREATE TABLE laurel.listing_installs (
    listing_id  uuid    NOT NULL REFERENCES laurel.listings ON DELETE CASCADE,
    user_id     bigint  NOT NULL,
    PRIMARY KEY (listing_id, user_id)
);
