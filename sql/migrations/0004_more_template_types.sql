-- Template types `progressive` and `monthly` (rules.md, "More template types"). Only the types' names are new to
-- the table: the targets beyond a progressive template's tiers, and each month's tiers of a monthly one, are made by
-- the server from the tiers and the unlocks.
ALTER TABLE laurel.templates DROP CONSTRAINT templates_type_check;
ALTER TABLE laurel.templates ADD CONSTRAINT templates_type_check
    CHECK (type IN ('volume', 'daily', 'weekly', 'streak', 'speed', 'progressive', 'monthly'));
