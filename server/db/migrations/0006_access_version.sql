ALTER TABLE "channels" ADD COLUMN "access_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Who may post in a channel is remembered between posts (server/messages/access-cache.ts) and trusted only
-- while the channel's access_version is the one it was read with. Every write that can change a post's
-- access raises it here, in the writer's own transaction, whichever node or code path made the write.
CREATE FUNCTION lantern_bump_channel_access(channel text) RETURNS void LANGUAGE sql AS $$
  UPDATE channels SET access_version = access_version + 1 WHERE id = channel
$$;
--> statement-breakpoint
CREATE FUNCTION lantern_channel_member_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM lantern_bump_channel_access(OLD.channel_id); END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.channel_id IS DISTINCT FROM OLD.channel_id) THEN
    PERFORM lantern_bump_channel_access(NEW.channel_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER channel_members_access AFTER INSERT OR DELETE OR UPDATE OF channel_id, member_id, blocked
  ON channel_members FOR EACH ROW EXECUTE FUNCTION lantern_channel_member_access();
--> statement-breakpoint
CREATE FUNCTION lantern_channel_member_role_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM lantern_bump_channel_access(cm.channel_id) FROM channel_members cm WHERE cm.id = OLD.channel_member_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM lantern_bump_channel_access(cm.channel_id) FROM channel_members cm WHERE cm.id = NEW.channel_member_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER channel_member_roles_access AFTER INSERT OR DELETE OR UPDATE
  ON channel_member_roles FOR EACH ROW EXECUTE FUNCTION lantern_channel_member_role_access();
--> statement-breakpoint
CREATE FUNCTION lantern_channel_role_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM lantern_bump_channel_access(OLD.channel_id); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM lantern_bump_channel_access(NEW.channel_id); END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER channel_roles_access AFTER INSERT OR DELETE OR UPDATE
  ON channel_roles FOR EACH ROW EXECUTE FUNCTION lantern_channel_role_access();
--> statement-breakpoint
-- A channel's own details: anything but what a post moves (its sequence, count and last message).
CREATE FUNCTION lantern_channel_details_access() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.id, NEW.institution_id, NEW.name, NEW.description, NEW.type, NEW.is_default, NEW.default_role_id,
      NEW.direct_message_key, NEW.created_by)
     IS DISTINCT FROM
     (OLD.id, OLD.institution_id, OLD.name, OLD.description, OLD.type, OLD.is_default, OLD.default_role_id,
      OLD.direct_message_key, OLD.created_by) THEN
    NEW.access_version := OLD.access_version + 1;
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER channels_access BEFORE UPDATE ON channels FOR EACH ROW EXECUTE FUNCTION lantern_channel_details_access();
--> statement-breakpoint
-- A member's workspace role or kind: every channel they are in, one by one in id order, the order a batch
-- of posts over several channels locks them in (so the two never wait on each other crosswise).
CREATE FUNCTION lantern_member_access() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  channel text;
BEGIN
  FOR channel IN SELECT channel_id FROM channel_members WHERE member_id = NEW.id ORDER BY channel_id LOOP
    PERFORM lantern_bump_channel_access(channel);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER members_access AFTER UPDATE OF role, kind, institution_id, user_id
  ON members FOR EACH ROW EXECUTE FUNCTION lantern_member_access();
