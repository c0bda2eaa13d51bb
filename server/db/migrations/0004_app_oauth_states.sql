CREATE TABLE "app_oauth_states" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"app_name" text NOT NULL,
	"state_hash" text NOT NULL,
	"verifier_encrypted" text NOT NULL,
	"is_org" boolean NOT NULL,
	"connection_id" uuid,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_oauth_states" ADD CONSTRAINT "app_oauth_states_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_oauth_states" ADD CONSTRAINT "app_oauth_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_oauth_states" ADD CONSTRAINT "app_oauth_states_connection_id_app_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."app_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_oauth_states_state_hash_key" ON "app_oauth_states" USING btree ("state_hash");--> statement-breakpoint
CREATE INDEX "app_oauth_states_org_user_idx" ON "app_oauth_states" USING btree ("org_id","user_id");