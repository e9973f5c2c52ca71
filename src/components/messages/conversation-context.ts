// What the open channel's message rows and composer share: the message being replied to and the one
// being edited in place. Provided by the channel screen; both live only while the channel is open.
import { createContext, useContext } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';

export interface Conversation {
  institutionId: string;
  channelId: string;
  replyTo: MessageDoc | null;
  setReplyTo: (message: MessageDoc | null) => void;
  /** genId of the message being edited inline, or null. */
  editing: string | null;
  setEditing: (genId: string | null) => void;
  /** Scrolls to a message and flashes it (a reply's quote jumps to its original). */
  jumpTo: (messageId: string) => void;
}

export const ConversationContext = createContext<Conversation | null>(null);

export function useConversation(): Conversation | null {
  return useContext(ConversationContext);
}
