ALTER TABLE "app_connections" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "app_connections" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "lane" text DEFAULT 'quick' NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "exclusive_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_exclusive_key" ON "jobs" USING btree ("exclusive_key") WHERE status = 'running';--> statement-breakpoint
UPDATE "jobs" SET "lane" = 'long' WHERE "kind" = 'connector.disconnect' OR ("kind" = 'connector.sync' AND "payload"->>'mode' <> 'permissions');--> statement-breakpoint
UPDATE "jobs" SET "exclusive_key" = 'connection:' || ("payload"->>'connectionId') WHERE "kind" = 'connector.sync' AND "status" IN ('queued', 'running');
