-- messages.row_id was one sequence across orgs, so the numbers a member saw measured every org's traffic. Each org
-- now numbers its own messages: orgs.last_message_row_id is the org's counter (its row lock orders concurrent
-- writers, so numbers are unique and gapless per org), and the trigger assigns it whatever the writer sent.
-- Existing rows keep their numbers; each org continues from its highest.
DROP INDEX "messages_row_id_key";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "row_id" DROP IDENTITY;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "row_id" SET DEFAULT 0;--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "last_message_row_id" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "orgs" SET "last_message_row_id" = COALESCE(
  (SELECT max("row_id") FROM "messages" WHERE "messages"."org_id" = "orgs"."id"), 0);--> statement-breakpoint
CREATE FUNCTION messages_number_per_org() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orgs SET last_message_row_id = last_message_row_id + 1 WHERE id = NEW.org_id
    RETURNING last_message_row_id INTO NEW.row_id;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER messages_number_per_org BEFORE INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION messages_number_per_org();--> statement-breakpoint
CREATE UNIQUE INDEX "messages_org_row_id_key" ON "messages" USING btree ("org_id","row_id");
