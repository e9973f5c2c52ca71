CREATE TABLE "activities" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"recipient_member_id" text NOT NULL,
	"type" text NOT NULL,
	"message_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"actor_member_id" text NOT NULL,
	"emoji" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "agent_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"asker_member_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"answer_message_id" text,
	"model" text,
	"tokens_in" integer DEFAULT 0 NOT NULL,
	"tokens_out" integer DEFAULT 0 NOT NULL,
	"tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"duration_ms" integer DEFAULT 0 NOT NULL,
	"outcome" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"member_id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"model" text,
	"invokable_by" text DEFAULT 'everyone' NOT NULL,
	"max_tool_steps" integer DEFAULT 8 NOT NULL,
	"approve_all_tools" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_member_roles" (
	"channel_member_id" text NOT NULL,
	"role_id" text NOT NULL,
	CONSTRAINT "channel_member_roles_channel_member_id_role_id_pk" PRIMARY KEY("channel_member_id","role_id")
);
--> statement-breakpoint
CREATE TABLE "channel_members" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"member_id" text NOT NULL,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"last_read_message_id" text,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"muted" boolean DEFAULT false NOT NULL,
	"blocked" boolean DEFAULT false NOT NULL,
	"show_on_profile" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_push_levels" (
	"channel_member_id" text PRIMARY KEY NOT NULL,
	"level" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"member_id" text NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text
);
--> statement-breakpoint
CREATE TABLE "channel_roles" (
	"id" text PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"name" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"is_ownership_role" boolean DEFAULT false NOT NULL,
	"can_pin_message" boolean DEFAULT false NOT NULL,
	"can_post" boolean DEFAULT true NOT NULL,
	"can_tag" boolean DEFAULT false NOT NULL,
	"can_add_members" boolean DEFAULT false NOT NULL,
	"can_delete_message" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_section_channels" (
	"section_id" text NOT NULL,
	"member_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "channel_section_channels_section_id_channel_id_pk" PRIMARY KEY("section_id","channel_id")
);
--> statement-breakpoint
CREATE TABLE "channel_sections" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"member_id" text NOT NULL,
	"name" text NOT NULL,
	"position" integer NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"default_role_id" text,
	"direct_message_key" text,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seq" bigint DEFAULT 0 NOT NULL,
	"last_message_id" text,
	"last_message_at" timestamp with time zone,
	CONSTRAINT "channels_direct_message_key_unique" UNIQUE("direct_message_key")
);
--> statement-breakpoint
CREATE TABLE "deleted_members" (
	"member_id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_attachments" (
	"file_id" text NOT NULL,
	"message_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_attachments_file_id_message_id_pk" PRIMARY KEY("file_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"member_id" text NOT NULL,
	"file_key" text,
	"file_url" text,
	"file_name" text NOT NULL,
	"file_type" text NOT NULL,
	"file_size" bigint NOT NULL,
	"is_from_third_party" boolean DEFAULT false NOT NULL,
	"meta" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_uploading" boolean DEFAULT true NOT NULL,
	"upload_failed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_file_key_unique" UNIQUE("file_key")
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" text NOT NULL,
	"member_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_members_group_id_member_id_pk" PRIMARY KEY("group_id","member_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"name" text NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identities" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity_logins" (
	"state" text PRIMARY KEY NOT NULL,
	"provider_id" text NOT NULL,
	"binding_hash" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"pending" jsonb,
	"used_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "institutions" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_by" text,
	"agent_daily_token_cap" bigint,
	"member_metrics_enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitation_sends" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"inviter_user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"email" text NOT NULL,
	"invited_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"position" integer NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "knowledge_sources" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"error" text,
	"size" integer DEFAULT 0 NOT NULL,
	"chunk_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_accounts" (
	"platform_id" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "lti_accounts_platform_id_subject_pk" PRIMARY KEY("platform_id","subject")
);
--> statement-breakpoint
CREATE TABLE "lti_contexts" (
	"platform_id" text NOT NULL,
	"context_id" text NOT NULL,
	"institution_id" text NOT NULL,
	"roster_synced_at" timestamp with time zone,
	CONSTRAINT "lti_contexts_platform_id_context_id_pk" PRIMARY KEY("platform_id","context_id")
);
--> statement-breakpoint
CREATE TABLE "lti_launches" (
	"ltik_hash" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"user_id" text NOT NULL,
	"institution_id" text NOT NULL,
	"channel_id" text,
	"state_hash" text,
	"deep_linking" jsonb,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"registered_by" text NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"auth_login_url" text NOT NULL,
	"token_url" text NOT NULL,
	"key_set_url" text NOT NULL,
	"deployment_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_registration_links" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"created_by" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_resource_links" (
	"platform_id" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"channel_id" text NOT NULL,
	CONSTRAINT "lti_resource_links_platform_id_resource_link_id_pk" PRIMARY KEY("platform_id","resource_link_id")
);
--> statement-breakpoint
CREATE TABLE "lti_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"nonce" text NOT NULL,
	"storage_target" text,
	"storage_key" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mcp_connections" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"agent_id" text NOT NULL,
	"name" text NOT NULL,
	"transport" jsonb NOT NULL,
	"environment_cipher" text NOT NULL,
	"environment_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "members" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"kind" text DEFAULT 'user' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_ops" (
	"op_id" text PRIMARY KEY NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"message_id" text NOT NULL,
	"result" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"args" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_stars" (
	"member_id" text NOT NULL,
	"message_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_stars_member_id_message_id_pk" PRIMARY KEY("member_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" text PRIMARY KEY NOT NULL,
	"gen_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"institution_id" text NOT NULL,
	"member_id" text NOT NULL,
	"content" text NOT NULL,
	"reply_to" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mentions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"edited_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"seq" bigint NOT NULL,
	"created_seq" bigint NOT NULL,
	"plain_text" text GENERATED ALWAYS AS (btrim(regexp_replace(replace(replace(replace(replace(replace(replace(regexp_replace(content, '<[^>]*>', ' ', 'g'), '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&'), '[[:space:]]+', ' ', 'g'))) STORED NOT NULL,
	"reactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pinned_at" timestamp with time zone,
	"poll" jsonb,
	"forwarded_from" jsonb,
	"agent_answer" jsonb
);
--> statement-breakpoint
CREATE TABLE "metric_channel_quarters" (
	"institution_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "metric_channel_quarters_channel_id_quarter_pk" PRIMARY KEY("channel_id","quarter")
);
--> statement-breakpoint
CREATE TABLE "metric_channel_totals" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"members" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_engagement" (
	"message_id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"replies" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	"poll_votes" integer DEFAULT 0 NOT NULL,
	"score" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "metric_member_quarters" (
	"institution_id" text NOT NULL,
	"member_id" text NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"posts" integer DEFAULT 0 NOT NULL,
	"reactions" integer DEFAULT 0 NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "metric_member_quarters_member_id_quarter_pk" PRIMARY KEY("member_id","quarter")
);
--> statement-breakpoint
CREATE TABLE "metric_quarters" (
	"institution_id" text NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"messages" integer DEFAULT 0 NOT NULL,
	"channels" integer DEFAULT 0 NOT NULL,
	"members" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "metric_quarters_institution_id_quarter_pk" PRIMARY KEY("institution_id","quarter")
);
--> statement-breakpoint
CREATE TABLE "metric_visit_quarters" (
	"institution_id" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"visitor_member_id" text NOT NULL,
	"quarter" timestamp with time zone NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "metric_visit_quarters_institution_id_target_type_quarter_target_id_visitor_member_id_pk" PRIMARY KEY("institution_id","target_type","quarter","target_id","visitor_member_id")
);
--> statement-breakpoint
CREATE TABLE "push_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"dnd_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "push_subscriptions" (
	"session_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"is_pwa" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_activity" (
	"session_id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"channel_id" text,
	"active_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"session_client_id" text,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "sessions_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "signin_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signin_failures" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signin_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"ip" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "upload_grants" (
	"file_key" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"institution_id" text NOT NULL,
	"size" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"profile_image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
CREATE TABLE "visits" (
	"id" text PRIMARY KEY NOT NULL,
	"institution_id" text NOT NULL,
	"visitor_member_id" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"counted" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_recipient_member_id_members_id_fk" FOREIGN KEY ("recipient_member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_runs" ADD CONSTRAINT "agent_runs_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_member_roles" ADD CONSTRAINT "channel_member_roles_channel_member_id_channel_members_id_fk" FOREIGN KEY ("channel_member_id") REFERENCES "public"."channel_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_member_roles" ADD CONSTRAINT "channel_member_roles_role_id_channel_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."channel_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_members" ADD CONSTRAINT "channel_members_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_members" ADD CONSTRAINT "channel_members_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_push_levels" ADD CONSTRAINT "channel_push_levels_channel_member_id_channel_members_id_fk" FOREIGN KEY ("channel_member_id") REFERENCES "public"."channel_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_requests" ADD CONSTRAINT "channel_requests_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_requests" ADD CONSTRAINT "channel_requests_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_requests" ADD CONSTRAINT "channel_requests_decided_by_members_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_roles" ADD CONSTRAINT "channel_roles_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_section_channels" ADD CONSTRAINT "channel_section_channels_section_id_channel_sections_id_fk" FOREIGN KEY ("section_id") REFERENCES "public"."channel_sections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_section_channels" ADD CONSTRAINT "channel_section_channels_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_section_channels" ADD CONSTRAINT "channel_section_channels_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sections" ADD CONSTRAINT "channel_sections_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channel_sections" ADD CONSTRAINT "channel_sections_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "channels" ADD CONSTRAINT "channels_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deleted_members" ADD CONSTRAINT "deleted_members_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_attachments" ADD CONSTRAINT "file_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_attachments" ADD CONSTRAINT "file_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_attachments" ADD CONSTRAINT "file_attachments_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_created_by_members_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identities" ADD CONSTRAINT "identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "institutions" ADD CONSTRAINT "institutions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invited_by_members_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_source_id_knowledge_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."knowledge_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "knowledge_sources" ADD CONSTRAINT "knowledge_sources_agent_id_agents_member_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("member_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_accounts" ADD CONSTRAINT "lti_accounts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_accounts" ADD CONSTRAINT "lti_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launches" ADD CONSTRAINT "lti_launches_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_platforms" ADD CONSTRAINT "lti_platforms_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_platforms" ADD CONSTRAINT "lti_platforms_registered_by_users_id_fk" FOREIGN KEY ("registered_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registration_links" ADD CONSTRAINT "lti_registration_links_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registration_links" ADD CONSTRAINT "lti_registration_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_resource_links" ADD CONSTRAINT "lti_resource_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_resource_links" ADD CONSTRAINT "lti_resource_links_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_states" ADD CONSTRAINT "lti_states_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_connections" ADD CONSTRAINT "mcp_connections_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mcp_connections" ADD CONSTRAINT "mcp_connections_agent_id_agents_member_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("member_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_stars" ADD CONSTRAINT "message_stars_member_id_members_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_stars" ADD CONSTRAINT "message_stars_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_stars" ADD CONSTRAINT "message_stars_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_channel_id_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_settings" ADD CONSTRAINT "push_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_activity" ADD CONSTRAINT "session_activity_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_activity" ADD CONSTRAINT "session_activity_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_institution_id_institutions_id_fk" FOREIGN KEY ("institution_id") REFERENCES "public"."institutions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_visitor_member_id_members_id_fk" FOREIGN KEY ("visitor_member_id") REFERENCES "public"."members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activities_recipient_idx" ON "activities" USING btree ("recipient_member_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_runs_institution_created_idx" ON "agent_runs" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "agent_runs_agent_created_idx" ON "agent_runs" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "agents_institution_idx" ON "agents" USING btree ("institution_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_members_channel_member_uq" ON "channel_members" USING btree ("channel_id","member_id");--> statement-breakpoint
CREATE INDEX "channel_members_member_idx" ON "channel_members" USING btree ("member_id");--> statement-breakpoint
CREATE INDEX "channel_requests_channel_idx" ON "channel_requests" USING btree ("channel_id","status");--> statement-breakpoint
CREATE INDEX "channel_requests_member_idx" ON "channel_requests" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_requests_one_pending_uq" ON "channel_requests" USING btree ("channel_id","member_id") WHERE "channel_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "channel_roles_channel_idx" ON "channel_roles" USING btree ("channel_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_section_channels_member_channel_uq" ON "channel_section_channels" USING btree ("member_id","channel_id");--> statement-breakpoint
CREATE INDEX "channel_sections_member_idx" ON "channel_sections" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "channel_sections_one_default_uq" ON "channel_sections" USING btree ("member_id") WHERE "channel_sections"."is_default";--> statement-breakpoint
CREATE INDEX "channels_institution_idx" ON "channels" USING btree ("institution_id");--> statement-breakpoint
CREATE INDEX "deleted_members_institution_idx" ON "deleted_members" USING btree ("institution_id");--> statement-breakpoint
CREATE INDEX "files_channel_created_idx" ON "files" USING btree ("channel_id","created_at");--> statement-breakpoint
CREATE INDEX "files_institution_created_idx" ON "files" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "group_members_member_idx" ON "group_members" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_institution_name_uq" ON "groups" USING btree ("institution_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "identities_issuer_subject_idx" ON "identities" USING btree ("issuer","subject");--> statement-breakpoint
CREATE INDEX "identities_user_idx" ON "identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "identity_logins_expires_idx" ON "identity_logins" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "invitation_sends_institution_idx" ON "invitation_sends" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "invitation_sends_inviter_idx" ON "invitation_sends" USING btree ("inviter_user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_institution_email_uq" ON "invitations" USING btree ("institution_id","email");--> statement-breakpoint
CREATE INDEX "invitations_email_idx" ON "invitations" USING btree ("email");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_agent_idx" ON "knowledge_chunks" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin (to_tsvector('english', "content"));--> statement-breakpoint
CREATE INDEX "knowledge_sources_agent_idx" ON "knowledge_sources" USING btree ("agent_id");--> statement-breakpoint
CREATE INDEX "lti_accounts_user_idx" ON "lti_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client_uq" ON "lti_platforms" USING btree ("issuer","client_id");--> statement-breakpoint
CREATE INDEX "lti_platforms_institution_idx" ON "lti_platforms" USING btree ("institution_id");--> statement-breakpoint
CREATE INDEX "mcp_connections_agent_idx" ON "mcp_connections" USING btree ("institution_id","agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "members_institution_user_uq" ON "members" USING btree ("institution_id","user_id");--> statement-breakpoint
CREATE INDEX "members_user_idx" ON "members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "message_stars_member_channel_idx" ON "message_stars" USING btree ("member_id","channel_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_gen_id_uq" ON "messages" USING btree ("gen_id");--> statement-breakpoint
CREATE INDEX "messages_channel_pinned_idx" ON "messages" USING btree ("channel_id","pinned_at");--> statement-breakpoint
CREATE INDEX "messages_search_idx" ON "messages" USING gin (to_tsvector('simple', "plain_text"));--> statement-breakpoint
CREATE INDEX "messages_channel_seq_idx" ON "messages" USING btree ("channel_id","seq");--> statement-breakpoint
CREATE INDEX "messages_channel_created_seq_idx" ON "messages" USING btree ("channel_id","created_seq");--> statement-breakpoint
CREATE INDEX "messages_unfinished_answer_idx" ON "messages" USING btree ("id") WHERE ("messages"."agent_answer"->>'status') in ('thinking', 'streaming', 'awaiting_approval');--> statement-breakpoint
CREATE INDEX "metric_channel_quarters_institution_idx" ON "metric_channel_quarters" USING btree ("institution_id","quarter");--> statement-breakpoint
CREATE INDEX "metric_engagement_rank_idx" ON "metric_engagement" USING btree ("institution_id","score","created_at");--> statement-breakpoint
CREATE INDEX "metric_engagement_created_idx" ON "metric_engagement" USING btree ("institution_id","created_at");--> statement-breakpoint
CREATE INDEX "push_subscriptions_user_idx" ON "push_subscriptions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "push_subscriptions_endpoint_idx" ON "push_subscriptions" USING btree ("endpoint");--> statement-breakpoint
CREATE INDEX "session_activity_user_idx" ON "session_activity" USING btree ("user_id","active_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signin_codes_email_idx" ON "signin_codes" USING btree ("email","expires_at");--> statement-breakpoint
CREATE INDEX "signin_failures_email_idx" ON "signin_failures" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "signin_failures_ip_idx" ON "signin_failures" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "signin_requests_email_idx" ON "signin_requests" USING btree ("email","created_at");--> statement-breakpoint
CREATE INDEX "signin_requests_ip_idx" ON "signin_requests" USING btree ("ip","created_at");--> statement-breakpoint
CREATE INDEX "upload_grants_user_idx" ON "upload_grants" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "upload_grants_institution_idx" ON "upload_grants" USING btree ("institution_id");--> statement-breakpoint
CREATE INDEX "visits_metrics_idx" ON "visits" USING btree ("institution_id","target_type","created_at");--> statement-breakpoint
CREATE INDEX "visits_visitor_target_idx" ON "visits" USING btree ("visitor_member_id","target_id","created_at");