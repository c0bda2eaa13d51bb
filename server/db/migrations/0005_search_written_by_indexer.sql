ALTER TABLE "document_chunks" ALTER COLUMN "search" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "document_chunks" ALTER COLUMN "search" DROP EXPRESSION;