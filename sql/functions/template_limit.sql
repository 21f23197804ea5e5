-- The template limit of a premium user: the one of the server this session belongs to (each of its database
-- connections sets laurel.template_limit), else the one laurel serve recorded (an operator's psql session).
CREATE OR REPLACE FUNCTION laurel.template_limit() RETURNS integer
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('laurel.template_limit', true), '')::integer,
                    (SELECT l.template_limit FROM laurel.server_limits l), 100)
$$;
