-- Admin API: removes a marketplace listing (its author can too, with TEMPLATE.UNPUBLISH); installed copies stay.
-- True when there was such a listing.
CREATE OR REPLACE FUNCTION laurel.unpublish_listing(listing_id text) RETURNS boolean
LANGUAGE sql AS $$
    WITH gone AS (DELETE FROM laurel.listings l WHERE l.id::text = unpublish_listing.listing_id RETURNING 1)
    SELECT count(*) > 0 FROM gone
$$;
