// One sidebar section: a collapsible header with its menu (rename, delete, new section, move up or down)
// and its channels, which can be dragged to another section or moved with the row menu ("Move to
// section"). The header itself can be dragged above or below another section, or moved with
// Alt+Shift+↑/↓ while it has focus.
import {
  ArrowDown,
  ArrowUp,
  ChevronRight,
  FolderInput,
  FolderPlus,
  Hash,
  Lock,
  MoreHorizontal,
  Pencil,
  Trash2,
} from 'lucide-react';
import { type DragEvent, type KeyboardEvent, type ReactNode, useState } from 'react';
import { NavLink } from 'react-router';
import type { ChannelFields } from '../../../schemas/collections.ts';
import type { Section } from '../../../schemas/protocol/index.ts';
import { cn } from '../ui/cn.ts';
import {
  Menu,
  MenuContent,
  MenuItem,
  MenuLabel,
  MenuSeparator,
  MenuSub,
  MenuSubContent,
  MenuSubTrigger,
  MenuTrigger,
} from '../ui/menu.tsx';
import { ChannelRowActions } from './channel-row-actions.tsx';

export type SectionLike = Section;

/** The drag payload type: only channel rows of this sidebar are accepted as drops. */
const DRAG_TYPE = 'application/x-lantern-channel';
/** A dragged section header: its own type, so a section is never dropped into a channel list. */
const SECTION_DRAG_TYPE = 'application/x-lantern-section';

export interface SectionActions {
  onToggle: (sectionId: string, collapsed: boolean) => void;
  onRename: (section: SectionLike) => void;
  onDelete: (section: SectionLike) => void;
  onCreate: () => void;
  /** New section holding this channel. */
  onCreateWith: (channelId: string) => void;
  onMove: (channelId: string, toSectionId: string, index?: number) => void;
  /** Put the section just before `beforeId` (last when null). */
  onPlaceSection: (sectionId: string, beforeId: string | null) => void;
  /** Move the section one place up or down (menu and Alt+Shift+↑/↓). */
  onStepSection: (sectionId: string, step: -1 | 1) => void;
}

export function SidebarSectionBlock({
  section,
  channels,
  allSections,
  collapsed,
  base,
  openChannelId,
  unreadOf,
  headerActions,
  emptyHint,
  actions,
  place,
  nextSectionId,
}: {
  section: SectionLike;
  channels: ChannelFields[];
  allSections: readonly SectionLike[];
  collapsed: boolean;
  base: string;
  openChannelId: string | undefined;
  unreadOf: (channelId: string) => number;
  headerActions?: ReactNode;
  /** Shown instead of the drop hint when the section is empty (the default section's "Browse channels"). */
  emptyHint?: ReactNode;
  actions: SectionActions;
  /** Where the section stands, for its Move up/down items: index from 0 and how many there are. */
  place: { index: number; count: number };
  /** The id of the section shown after this one (null when last): a drop below this header goes before it. */
  nextSectionId: string | null;
}) {
  const [dropIndex, setDropIndex] = useState<number | null>(null);
  // A section header dragged over this one: drop above or below it.
  const [sectionDrop, setSectionDrop] = useState<'before' | 'after' | null>(null);
  const [draggingSection, setDraggingSection] = useState(false);
  const headingId = `section-${section.id}`;
  // A collapsed section still shows the open channel and unread ones, so nothing important hides.
  const shown = collapsed ? channels.filter((c) => c.id === openChannelId || unreadOf(c.id) > 0) : channels;
  const totalUnread = channels.reduce((sum, c) => sum + unreadOf(c.id), 0);

  function overSection(event: DragEvent<HTMLElement>) {
    if (!event.dataTransfer.types.includes(SECTION_DRAG_TYPE)) return false;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    const box = event.currentTarget.getBoundingClientRect();
    setSectionDrop(event.clientY < box.top + Math.min(box.height / 2, 24) ? 'before' : 'after');
    return true;
  }

  function dropSection(event: DragEvent) {
    const draggedId = event.dataTransfer.getData(SECTION_DRAG_TYPE);
    const where = sectionDrop;
    setSectionDrop(null);
    if (!draggedId || !where) return false;
    event.preventDefault();
    if (draggedId !== section.id)
      actions.onPlaceSection(draggedId, where === 'before' ? section.id : nextSectionId);
    return true;
  }

  function headerKey(event: KeyboardEvent) {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    // Handled here, so the sidebar's Alt+↑/↓ (next conversation) does not also run.
    event.preventDefault();
    actions.onStepSection(section.id, event.key === 'ArrowUp' ? -1 : 1);
  }

  function over(event: DragEvent, index: number) {
    if (!event.dataTransfer.types.includes(DRAG_TYPE)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    setDropIndex(index);
  }

  function drop(event: DragEvent) {
    const channelId = event.dataTransfer.getData(DRAG_TYPE);
    const index = dropIndex ?? channels.length;
    setDropIndex(null);
    if (!channelId) return;
    event.preventDefault();
    actions.onMove(channelId, section.id, collapsed ? undefined : index);
  }

  return (
    <section
      className={cn('relative mt-3 first:mt-1', draggingSection && 'opacity-40')}
      aria-labelledby={headingId}
      data-section-id={section.id}
      onDragOver={(e) => {
        if (overSection(e)) return;
        over(e, dropIndex ?? channels.length);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget.contains(e.relatedTarget as Node | null)) return;
        setDropIndex(null);
        setSectionDrop(null);
      }}
      onDrop={(e) => {
        if (dropSection(e)) return;
        drop(e);
      }}
    >
      {sectionDrop === 'before' ? <SectionDropLine edge="top" /> : null}
      <div
        className={cn(
          'group/section flex h-7 items-center justify-between gap-1 rounded-md pr-1',
          dropIndex !== null && collapsed && 'bg-accent-soft',
        )}
      >
        {/* The header button is what one drags: the section moves above or below another. */}
        <button
          type="button"
          draggable
          onDragStart={(e) => {
            e.dataTransfer.setData(SECTION_DRAG_TYPE, section.id);
            e.dataTransfer.setData('text/plain', section.name);
            e.dataTransfer.effectAllowed = 'move';
            setDraggingSection(true);
          }}
          onDragEnd={() => setDraggingSection(false)}
          onClick={() => actions.onToggle(section.id, !collapsed)}
          onKeyDown={headerKey}
          aria-expanded={!collapsed}
          aria-keyshortcuts="Alt+Shift+ArrowUp Alt+Shift+ArrowDown"
          className="flex h-7 min-w-0 flex-1 items-center gap-1 rounded-md pl-1 text-left text-muted outline-none hover:text-fg focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ChevronRight
            className={cn('size-3.5 shrink-0 transition-transform', !collapsed && 'rotate-90')}
            aria-hidden
          />
          <h2 id={headingId} className="truncate text-xs font-semibold tracking-wide">
            {section.name}
          </h2>
          {collapsed && totalUnread > 0 ? (
            <span className="ml-1 text-[11px] font-semibold text-fg tabular-nums">{totalUnread}</span>
          ) : null}
        </button>
        <div className="flex items-center gap-0.5">
          <Menu>
            <MenuTrigger
              aria-label={`${section.name} section options`}
              className="flex size-6 items-center justify-center rounded text-muted opacity-100 outline-none hover:bg-hover hover:text-fg focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring data-[state=open]:opacity-100 md:opacity-0 md:group-hover/section:opacity-100 [&_svg]:size-3.5"
            >
              <MoreHorizontal aria-hidden />
            </MenuTrigger>
            <MenuContent align="end" className="w-56">
              <MenuItem icon={<FolderPlus />} onSelect={actions.onCreate}>
                New section
              </MenuItem>
              {place.count > 1 ? (
                <>
                  <MenuItem
                    icon={<ArrowUp />}
                    className="data-[disabled]:opacity-50"
                    disabled={place.index === 0}
                    onSelect={() => actions.onStepSection(section.id, -1)}
                  >
                    Move section up
                  </MenuItem>
                  <MenuItem
                    icon={<ArrowDown />}
                    className="data-[disabled]:opacity-50"
                    disabled={place.index === place.count - 1}
                    onSelect={() => actions.onStepSection(section.id, 1)}
                  >
                    Move section down
                  </MenuItem>
                </>
              ) : null}
              {section.isDefault ? null : (
                <>
                  <MenuItem icon={<Pencil />} onSelect={() => actions.onRename(section)}>
                    Rename section
                  </MenuItem>
                  <MenuSeparator />
                  <MenuItem icon={<Trash2 />} destructive onSelect={() => actions.onDelete(section)}>
                    Delete section
                  </MenuItem>
                </>
              )}
            </MenuContent>
          </Menu>
          {headerActions}
        </div>
      </div>
      <ul className="flex flex-col gap-px" aria-labelledby={headingId}>
        {shown.map((channel, index) => (
          <ChannelRow
            key={channel.id}
            base={base}
            channel={channel}
            unread={channel.id === openChannelId ? 0 : unreadOf(channel.id)}
            sectionId={section.id}
            allSections={allSections}
            dropBefore={!collapsed && dropIndex === index}
            onDragOverRow={(e) => {
              // A dragged section header is the section's to handle (a drop above or below it).
              if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
              const box = e.currentTarget.getBoundingClientRect();
              over(e, e.clientY < box.top + box.height / 2 ? index : index + 1);
              e.stopPropagation();
            }}
            onMove={actions.onMove}
            onCreateWith={actions.onCreateWith}
          />
        ))}
        {!collapsed && channels.length === 0 && emptyHint ? <li>{emptyHint}</li> : null}
        {!collapsed && channels.length === 0 && !emptyHint ? (
          <li
            className={cn(
              'flex h-8 items-center rounded-md border border-dashed border-line-strong px-2 text-[12px] text-faint md:h-7',
              dropIndex !== null && 'border-accent bg-accent-soft text-accent-fg',
            )}
          >
            Drag channels here
          </li>
        ) : null}
        {!collapsed && channels.length > 0 && dropIndex === channels.length ? <DropLine /> : null}
      </ul>
      {sectionDrop === 'after' ? <SectionDropLine edge="bottom" /> : null}
    </section>
  );
}

/** Where a dragged section header would land: a line above or below this section. */
function SectionDropLine({ edge }: { edge: 'top' | 'bottom' }) {
  return (
    <div
      aria-hidden
      className={cn(
        'pointer-events-none absolute inset-x-1 h-0.5 rounded-full bg-accent',
        edge === 'top' ? '-top-1.5' : '-bottom-1.5',
      )}
    />
  );
}

function DropLine() {
  return <li aria-hidden className="mx-2 h-0.5 rounded-full bg-accent" />;
}

const rowClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'flex h-8 min-w-0 flex-1 items-center gap-2 rounded-md px-2 text-[14px] text-fg/85 outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring md:h-7 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted',
    isActive && 'bg-selected font-medium text-fg',
  );

function ChannelRow({
  base,
  channel,
  unread,
  sectionId,
  allSections,
  dropBefore,
  onDragOverRow,
  onMove,
  onCreateWith,
}: {
  base: string;
  channel: ChannelFields;
  unread: number;
  sectionId: string;
  allSections: readonly SectionLike[];
  dropBefore: boolean;
  onDragOverRow: (event: DragEvent<HTMLLIElement>) => void;
  onMove: SectionActions['onMove'];
  onCreateWith: SectionActions['onCreateWith'];
}) {
  const [dragging, setDragging] = useState(false);
  const Icon = channel.type === 'private' ? Lock : Hash;
  const others = allSections.filter((s) => s.id !== sectionId);
  return (
    <>
      {dropBefore ? <DropLine /> : null}
      <li
        draggable
        data-channel-id={channel.id}
        onDragStart={(e) => {
          e.dataTransfer.setData(DRAG_TYPE, channel.id);
          e.dataTransfer.setData('text/plain', `#${channel.name}`);
          e.dataTransfer.effectAllowed = 'move';
          setDragging(true);
        }}
        onDragEnd={() => setDragging(false)}
        onDragOver={onDragOverRow}
        className={cn('group/row relative flex items-center', dragging && 'opacity-40')}
      >
        <NavLink
          to={`${base}/channel/${channel.id}`}
          draggable={false}
          className={(state) => cn(rowClass(state), unread > 0 && 'font-semibold text-fg')}
          aria-label={unread > 0 ? `${channel.name}, ${unread} unread` : channel.name}
        >
          <Icon aria-hidden />
          <span className="min-w-0 flex-1 truncate">{channel.name}</span>
          {unread > 0 ? (
            <span
              className="min-w-5 rounded-full bg-accent px-1.5 text-center text-[11px] leading-[18px] font-semibold text-white tabular-nums group-hover/row:mr-6 md:group-hover/row:mr-5"
              data-testid="unread-count"
            >
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </NavLink>
        <Menu>
          <MenuTrigger
            aria-label={`${channel.name} options`}
            className="absolute right-1 flex size-6 items-center justify-center rounded text-muted opacity-0 outline-none hover:bg-selected hover:text-fg focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring group-hover/row:opacity-100 data-[state=open]:opacity-100 [&_svg]:size-3.5"
          >
            <MoreHorizontal aria-hidden />
          </MenuTrigger>
          <MenuContent align="start" className="w-56">
            <ChannelRowActions channel={channel} unread={unread}>
              <MenuSub>
                <MenuSubTrigger>
                  <FolderInput aria-hidden />
                  <span className="flex-1">Move to section</span>
                  <ChevronRight aria-hidden />
                </MenuSubTrigger>
                <MenuSubContent sideOffset={6}>
                  <MenuLabel>Move #{channel.name} to</MenuLabel>
                  {others.map((s) => (
                    <MenuItem key={s.id} onSelect={() => onMove(channel.id, s.id)}>
                      {s.name}
                    </MenuItem>
                  ))}
                  {others.length > 0 ? <MenuSeparator /> : null}
                  <MenuItem icon={<FolderPlus />} onSelect={() => onCreateWith(channel.id)}>
                    New section…
                  </MenuItem>
                </MenuSubContent>
              </MenuSub>
            </ChannelRowActions>
          </MenuContent>
        </Menu>
      </li>
    </>
  );
}
