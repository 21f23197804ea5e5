-- A commit part's pushes' data as `json[]`, one element a push, where it was one `json` array. laurel.store_changes
-- pairs each push's kind with its data by `unnest`; out of a single array it had to take the data apart first
-- (`json_array_elements` in a subquery), a subplan made ready in every batch and run for every committed part,
-- pushes or none: some 13,000 instructions of PostgreSQL's a batch and 4,000 a part (scripts/bench-commit).
ALTER TYPE laurel.commit_part ALTER ATTRIBUTE push_data TYPE json[];
