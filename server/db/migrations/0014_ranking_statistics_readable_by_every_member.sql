ALTER TABLE "search_stats" ADD COLUMN "shared_chunk_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_stats" ADD COLUMN "shared_total_length" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_term_stats" ADD COLUMN "shared_doc_freq" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The new columns are filled from the chunks already indexed: those whose ACL names 'org' or 'public'.
UPDATE "search_term_stats" s SET "shared_doc_freq" = r.n
FROM (
  SELECT c.org_id, t.lexeme, count(*)::int AS n
  FROM "document_chunks" c, unnest(tsvector_to_array(c.search)) AS t(lexeme)
  WHERE c.acl && ARRAY['org', 'public']::text[]
  GROUP BY c.org_id, t.lexeme
) AS r
WHERE s.org_id = r.org_id AND s.lexeme = r.lexeme;--> statement-breakpoint
UPDATE "search_stats" s SET "shared_chunk_count" = r.n, "shared_total_length" = r.length
FROM (
  SELECT c.org_id, count(*) AS n, coalesce(sum(c.search_length), 0) AS length
  FROM "document_chunks" c
  WHERE c.acl && ARRAY['org', 'public']::text[]
  GROUP BY c.org_id
) AS r
WHERE s.org_id = r.org_id;
