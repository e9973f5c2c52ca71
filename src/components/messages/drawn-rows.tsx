// The message list's rows as React elements, each kept from one render to the next while nothing it shows
// changed. React passes over an element it was given before without comparing its props, so a live message
// renders its own row and costs the rows above it a lookup each: built afresh, every drawn row (up to
// ~100) had its separator and grouping worked out, its elements made and its props compared, in each of
// the three renders a message brings (docs/performance.md, "Rows kept between renders"). Whatever a row is
// drawn with must be in KeptRow's comparison or in RowContext: a row would not redraw for anything else.
import { Fragment, type ReactElement, useRef } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import type { WorkspaceMember } from '../../app/workspace-context.ts';
import { sameFields } from '../../data/store-reads.ts';
import { continuesGroup, startsNewDay } from './day.ts';
import { DaySeparator, MessageRow } from './message-row.tsx';
import { NewMessagesLine } from './new-messages-line.tsx';

/** What every row is drawn with: a change to any of these draws every row again. */
export interface RowContext {
  meId: string;
  showAvatar: boolean;
  canDeleteAny: boolean;
  canPin: boolean;
  isOwner: boolean;
  offline: boolean;
  /** Today's date: a separator's "Today" becomes "Yesterday" with the next render after midnight. */
  today: string;
}

/** What one row's element was made from: the same again gives the same element. */
interface KeptRow {
  message: MessageDoc;
  previous: MessageDoc | undefined;
  isFirstNew: boolean;
  author: WorkspaceMember | undefined;
  replied: MessageDoc | undefined;
  element: ReactElement;
}

/**
 * The elements of the rows drawn (`messages` from `from` on), each with its day separator and the "New
 * messages" line where they belong. `messages` is the whole window: the row before the first drawn one
 * decides that row's separator and grouping.
 */
export function useDrawnRows(
  messages: readonly MessageDoc[],
  from: number,
  firstNew: string | null | undefined,
  membersById: ReadonlyMap<string, WorkspaceMember>,
  byId: ReadonlyMap<string, MessageDoc>,
  context: RowContext,
): ReactElement[] {
  const kept = useRef<{ context: RowContext; rows: Map<string, KeptRow> } | null>(null);
  const before = kept.current && sameFields(kept.current.context, context) ? kept.current.rows : null;
  const rows = new Map<string, KeptRow>();
  const elements: ReactElement[] = [];
  for (let at = from; at < messages.length; at++) {
    const message = messages[at] as MessageDoc;
    const previous = messages[at - 1];
    const isFirstNew = message.genId === firstNew;
    const author = membersById.get(message.memberId);
    const replied = message.replyTo ? byId.get(message.replyTo) : undefined;
    const old = before?.get(message.genId);
    let row: KeptRow;
    if (
      old &&
      old.message === message &&
      old.previous === previous &&
      old.isFirstNew === isFirstNew &&
      old.author === author &&
      old.replied === replied
    )
      row = old;
    else {
      const newDay = startsNewDay(previous, message);
      row = {
        message,
        previous,
        isFirstNew,
        author,
        replied,
        element: (
          <Fragment key={message.genId}>
            {newDay ? <DaySeparator date={new Date(message.createdAt)} /> : null}
            {isFirstNew ? <NewMessagesLine /> : null}
            <MessageRow
              message={message}
              author={author}
              compact={!newDay && !isFirstNew && continuesGroup(previous, message)}
              showAvatar={context.showAvatar}
              replied={replied}
              meId={context.meId}
              canDeleteAny={context.canDeleteAny}
              canPin={context.canPin}
              isOwner={context.isOwner}
              offline={context.offline && message.status === 'pending'}
            />
          </Fragment>
        ),
      };
    }
    rows.set(message.genId, row);
    elements.push(row.element);
  }
  kept.current = { context, rows };
  return elements;
}
