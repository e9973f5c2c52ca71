// The top of a channel's history (issue 15 item 3): what this channel is, with a lock for a private one
// and # for a public one, who created it and when, its description, and ways to bring people in and to
// describe it. A direct message introduces the person instead.
import { Hash, Lock, Pencil, UserPlus } from 'lucide-react';
import { Avatar } from '../ui/avatar.tsx';
import { Button } from '../ui/button.tsx';

export interface ChannelIntroProps {
  type: 'public' | 'private' | 'direct_message';
  title: string;
  /** The creator's name when the directory knows them; null for a default channel or a departed member. */
  creatorName: string | null;
  createdAt: string;
  isDefault: boolean;
  /** For a direct message: the other person's avatar. */
  person?: { id: string; src: string | null };
  /** Opens the channel's Members panel; absent when the person may not add members. */
  onAddPeople?: () => void;
  /** What the channel is for, if someone wrote it. */
  description?: string | null;
  /** Opens "Add a description"; absent when the person may not change the channel. */
  onDescribe?: () => void;
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

export function ChannelIntro({
  type,
  title,
  creatorName,
  createdAt,
  isDefault,
  person,
  onAddPeople,
  description,
  onDescribe,
}: ChannelIntroProps) {
  if (type === 'direct_message') {
    return (
      <div className="px-4 pt-8 pb-3">
        {person ? <Avatar id={person.id} name={title} src={person.src} size="lg" className="mb-3" /> : null}
        <h2 className="text-lg font-semibold">{title}</h2>
        <p className="text-[13px] text-muted">This is the beginning of your conversation with {title}.</p>
      </div>
    );
  }
  const Icon = type === 'private' ? Lock : Hash;
  const origin = isDefault
    ? `Everyone in the workspace is in #${title}.`
    : creatorName
      ? `${creatorName} created this ${type === 'private' ? 'private ' : ''}channel on ${day(createdAt)}.`
      : `This ${type === 'private' ? 'private ' : ''}channel was created on ${day(createdAt)}.`;
  return (
    <div className="px-4 pt-8 pb-3" data-testid="channel-intro">
      <div className="mb-3 flex size-11 items-center justify-center rounded-xl bg-accent-soft text-accent-fg">
        <Icon className="size-5" aria-label={type === 'private' ? 'Private channel' : 'Public channel'} />
      </div>
      <h2 className="text-lg font-semibold">Welcome to #{title}</h2>
      {description ? (
        <p className="mb-1 text-[14px] whitespace-pre-line break-words" data-testid="channel-description">
          {description}
        </p>
      ) : null}
      <p className="text-[13px] text-muted">
        This is the very beginning of the #{title} channel. {origin}
      </p>
      {onAddPeople || onDescribe ? (
        <div className="mt-3 flex flex-wrap gap-2">
          {onAddPeople ? (
            <Button size="sm" variant="outline" onClick={onAddPeople}>
              <UserPlus aria-hidden /> Add people
            </Button>
          ) : null}
          {onDescribe ? (
            <Button size="sm" variant="outline" onClick={onDescribe}>
              <Pencil aria-hidden /> {description ? 'Edit description' : 'Add a description'}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
