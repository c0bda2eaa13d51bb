CREATE TABLE "upload_blobs" (
	"org_id" uuid NOT NULL,
	"upload_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "upload_blobs_pkey" PRIMARY KEY("org_id","upload_id","seq")
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "title" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "file_type" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "parsed_text" text;--> statement-breakpoint
ALTER TABLE "upload_blobs" ADD CONSTRAINT "upload_blobs_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "upload_blobs" ADD CONSTRAINT "upload_blobs_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;