ALTER TABLE "uploads" ADD COLUMN "site_id" text;--> statement-breakpoint
CREATE INDEX "uploads_org_site_idx" ON "uploads" USING btree ("org_id","site_id");