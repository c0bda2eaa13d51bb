ALTER TABLE "acl_group_members" DROP CONSTRAINT "acl_group_members_key";--> statement-breakpoint
ALTER TABLE "acl_group_members" ADD CONSTRAINT "acl_group_members_key" UNIQUE NULLS NOT DISTINCT("org_id","connection_id","group_key","member_email");--> statement-breakpoint
-- Google groups were named per connection: 'group:gdrive:<connection id>:<email>' in Drive's ACLs and memberships,
-- 'group:gworkspace-directory:<connection id>:<email>' in the directory's, so the directory's members never met
-- Drive's sharing. They are now the organisation's, 'group:google:<email>', with members listed by whichever Google
-- connection syncs them; each membership row keeps its connection (the key above now includes it). ACLs and
-- memberships are renamed together, in this migration's transaction, so Drive's documents keep their readers with no
-- window in which they have none. Only a name carrying the row's own connection id (and an email, no colon) is
-- renamed: a group another app named alike (a custom-api feed's) stays that feed's, as the engine keeps it.
UPDATE "acl_group_members" m
SET "group_key" = 'group:google:' || substr(m."group_key", length('group:' || c."app_name" || ':' || c."id"::text || ':') + 1)
FROM "app_connections" c
WHERE c."id" = m."connection_id"
  AND c."app_name" IN ('gdrive', 'gworkspace-directory')
  AND starts_with(m."group_key", 'group:' || c."app_name" || ':' || c."id"::text || ':')
  AND strpos(substr(m."group_key", length('group:' || c."app_name" || ':' || c."id"::text || ':') + 1), ':') = 0;--> statement-breakpoint
-- Chunks carry their document's ACL (search filters on it), sorted as the indexer sorts it.
UPDATE "document_chunks" k
SET "acl" = ARRAY(
  SELECT DISTINCT CASE
    WHEN starts_with(p, 'group:gdrive:' || d."connection_id"::text || ':')
      AND strpos(substr(p, length('group:gdrive:' || d."connection_id"::text || ':') + 1), ':') = 0
    THEN 'group:google:' || substr(p, length('group:gdrive:' || d."connection_id"::text || ':') + 1)
    ELSE p
  END COLLATE "C"
  FROM unnest(k."acl") AS p
  ORDER BY 1
)
FROM "documents" d
WHERE d."id" = k."document_id"
  AND d."source" = 'gdrive'
  AND EXISTS (SELECT 1 FROM unnest(k."acl") AS p WHERE starts_with(p, 'group:gdrive:' || d."connection_id"::text || ':'));--> statement-breakpoint
UPDATE "documents" d
SET "acl" = ARRAY(
    SELECT DISTINCT CASE
      WHEN starts_with(p, 'group:gdrive:' || d."connection_id"::text || ':')
        AND strpos(substr(p, length('group:gdrive:' || d."connection_id"::text || ':') + 1), ':') = 0
      THEN 'group:google:' || substr(p, length('group:gdrive:' || d."connection_id"::text || ':') + 1)
      ELSE p
    END COLLATE "C"
    FROM unnest(d."acl") AS p
    ORDER BY 1
  ),
  "version" = d."version" + 1,
  "indexed_version" = d."version" + 1
WHERE d."source" = 'gdrive'
  AND EXISTS (SELECT 1 FROM unnest(d."acl") AS p WHERE starts_with(p, 'group:gdrive:' || d."connection_id"::text || ':'));
