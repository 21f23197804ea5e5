-- A timestamp as the protocol writes it: UTC with `Z`, rounded to the millisecond, with a fraction only when it is
-- not zero (`2026-11-20T08:15:00Z`, `2026-11-20T08:15:00.250Z`).
CREATE OR REPLACE FUNCTION laurel.rfc3339(p_at timestamptz) RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT to_char(utc, CASE WHEN utc = date_trunc('second', utc) THEN 'YYYY-MM-DD"T"HH24:MI:SS"Z"'
                             ELSE 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"' END)
      FROM (SELECT date_trunc('milliseconds', (p_at AT TIME ZONE 'UTC') + interval '0.5 milliseconds') AS utc) rounded;
$$;
