// The channel's side panel of saved messages (issue 4 items 4, 7): Pinned (everyone's, spec §4), Starred
// (mine) and the channel's Files. Lists come from the server when connected and from the store offline; a pin made here
// shows at once.
import { Paperclip, Pin, Star } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useRef } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import type { Message } from '../../../schemas/protocol/index.ts';
import { usePinnedMessages, useStarredMessages } from '../../data/message-lists.ts';
import { Sheet } from '../ui/sheet.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { ChannelFiles } from './channel-files.tsx';
import { MessageCard } from './message-card.tsx';

export type MessagePanelTab = 'pinned' | 'starred' | 'files';

const TITLES = { pinned: 'Pinned messages', starred: 'Starred messages', files: 'Files' } as const;
const LABELS = { pinned: 'Pinned', starred: 'Starred', files: 'Files' } as const;

export function MessagePanel({
  institutionId,
  channelId,
  title,
  tab,
  onTabChange,
  onClose,
}: {
  institutionId: string;
  channelId: string;
  title: string;
  tab: MessagePanelTab | null;
  onTabChange: (tab: MessagePanelTab) => void;
  onClose: () => void;
}) {
  // A message opened from the list is shown in the channel behind (decision 0087): the panel makes way
  // for it, and focus stays on the message rather than going back to the button that opened the panel.
  // A card opened in another tab (Ctrl+click) leaves this one as it was.
  const opened = useRef(false);
  const open = (inPlace: boolean) => {
    if (!inPlace) return;
    opened.current = true;
    onClose();
  };
  return (
    <Sheet
      open={tab !== null}
      onOpenChange={(open) => (open ? null : onClose())}
      onCloseAutoFocus={(event) => {
        if (opened.current) event.preventDefault();
        opened.current = false;
      }}
      title={TITLES[tab ?? 'pinned']}
      description={title}
      showDescription
      icon={tab === 'starred' ? <Star /> : tab === 'files' ? <Paperclip /> : <Pin />}
    >
      <Tabs.Root
        value={tab ?? 'pinned'}
        onValueChange={(v) => onTabChange(v as MessagePanelTab)}
        className="flex min-h-0 flex-1 flex-col"
      >
        <Tabs.List className="flex shrink-0 gap-1 border-b border-line px-3" aria-label="Saved messages">
          {(['pinned', 'starred', 'files'] as const).map((value) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="-mb-px h-9 border-b-2 border-transparent px-2 text-[13px] font-medium text-muted data-[state=active]:border-accent data-[state=active]:text-fg"
            >
              {LABELS[value]}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="pinned" className="min-h-0 flex-1 overflow-y-auto p-3">
          {tab === 'pinned' ? (
            <PinnedList institutionId={institutionId} channelId={channelId} onOpen={open} />
          ) : null}
        </Tabs.Content>
        <Tabs.Content value="starred" className="min-h-0 flex-1 overflow-y-auto p-3">
          {tab === 'starred' ? (
            <StarredList institutionId={institutionId} channelId={channelId} onOpen={open} />
          ) : null}
        </Tabs.Content>
        <Tabs.Content value="files" className="min-h-0 flex-1 overflow-y-auto p-3">
          {tab === 'files' ? <ChannelFiles institutionId={institutionId} channelId={channelId} /> : null}
        </Tabs.Content>
      </Tabs.Root>
    </Sheet>
  );
}

function List({
  messages,
  onOpen,
}: {
  messages: (MessageDoc | Message)[];
  onOpen: (inPlace: boolean) => void;
}) {
  return (
    <ul className="space-y-2">
      {messages.map((m) => (
        <li key={m.genId}>
          <MessageCard message={m} showChannel={false} onOpen={onOpen} />
        </li>
      ))}
    </ul>
  );
}

interface ListProps {
  institutionId: string;
  channelId: string;
  onOpen: (inPlace: boolean) => void;
}

function PinnedList({ institutionId, channelId, onOpen }: ListProps) {
  const pinned = usePinnedMessages(institutionId, channelId);
  if (pinned === undefined) return <Spinner />;
  if (pinned.length === 0)
    return (
      <EmptyState icon={Pin} title="No pinned messages">
        Pin important messages from a message's menu so everyone here can find them.
      </EmptyState>
    );
  return <List messages={pinned} onOpen={onOpen} />;
}

function StarredList({ institutionId, channelId, onOpen }: ListProps) {
  const starred = useStarredMessages(institutionId, channelId);
  if (starred === undefined) return <Spinner />;
  if (starred.length === 0)
    return (
      <EmptyState icon={Star} title="No starred messages">
        Star messages to keep them handy. Only you see your stars.
      </EmptyState>
    );
  return <List messages={starred} onOpen={onOpen} />;
}
