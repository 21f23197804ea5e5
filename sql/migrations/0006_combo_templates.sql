-- Template type `combo` (rules.md, "More template types"): 2 to 5 activities, each with a daily amount
-- ([{"activity_id", "amount"}]); `activity_id` keeps the first one's.
ALTER TABLE laurel.templates ADD COLUMN combo json;
ALTER TABLE laurel.templates DROP CONSTRAINT templates_type_check;
ALTER TABLE laurel.templates ADD CONSTRAINT templates_type_check
    CHECK (type IN ('volume', 'daily', 'weekly', 'streak', 'speed', 'progressive', 'monthly', 'combo'));

-- A combo listing names its activities by name: [{"activity", "amount"}].
ALTER TABLE laurel.listings ADD COLUMN combo json;
