ALTER TABLE "channel_members" ADD COLUMN "read_seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_members" ADD COLUMN "read_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channel_members" ADD COLUMN "own_since_read" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "channels" ADD COLUMN "message_count" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_channel_deleted_idx" ON "messages" USING btree ("channel_id","created_seq") WHERE "messages"."deleted_at" is not null;--> statement-breakpoint
-- Existing data: each channel's messages counted, and each member's stored count carried over as a read
-- position (decision 0047). A member with nothing unread stands at the channel's end; one with unread
-- messages at the last message they read, the count kept by read_count.
UPDATE "channels" AS c SET "message_count" = (SELECT count(*) FROM "messages" m WHERE m."channel_id" = c."id");--> statement-breakpoint
UPDATE "channel_members" AS cm SET
  "read_count" = GREATEST(0, c."message_count" - cm."unread_count"),
  "read_seq" = CASE WHEN cm."unread_count" = 0 THEN c."last_seq"
    ELSE COALESCE((SELECT m."created_seq" FROM "messages" m WHERE m."id" = cm."last_read_message_id"), 0) END
FROM "channels" AS c WHERE c."id" = cm."channel_id";--> statement-breakpoint
ALTER TABLE "channel_members" DROP COLUMN "unread_count";