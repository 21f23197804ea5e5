-- Template type `progressive` (rules.md, "More template types"): its tiers go on after the last one with twice the
-- previous target. Only the type's name is new to the table; the targets beyond the tiers are made by the server.
ALTER TABLE laurel.templates DROP CONSTRAINT templates_type_check;
ALTER TABLE laurel.templates ADD CONSTRAINT templates_type_check
    CHECK (type IN ('volume', 'daily', 'weekly', 'streak', 'speed', 'progressive'));
