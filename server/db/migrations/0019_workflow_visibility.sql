ALTER TABLE "prompts" ADD COLUMN "visibility" text DEFAULT 'PRIVATE' NOT NULL;--> statement-breakpoint
CREATE INDEX "prompts_org_author_idx" ON "prompts" USING btree ("org_id","author_id");--> statement-breakpoint
-- Rows from before private workflows were the org's recommended prompts: they stay shared with the org.
UPDATE "prompts" SET "visibility" = 'ORG';
