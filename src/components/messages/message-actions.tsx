// What can be done to a message (spec §4, §6): on desktop a toolbar appears on hover or keyboard focus
// (quick reactions, emoji, reply, star, more); on phones a "…" button or a long press opens the same menu.
// Its buttons are not tab stops: → on a focused message reaches them (message-keys.ts). Only allowed
// actions are offered: edit own, delete own or with canDeleteMessage, pin with canPinMessage.
import {
  Copy,
  Forward,
  MoreHorizontal,
  Pencil,
  Pin,
  PinOff,
  Reply,
  SmilePlus,
  Star,
  StarOff,
  Trash2,
} from 'lucide-react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import { notifyError } from '../../app/notify.ts';
import { togglePinMessage, toggleReaction, toggleStarredMessage } from '../../data/messages.ts';
import { cn } from '../ui/cn.ts';
import { Menu, MenuContent, MenuItem, MenuSeparator, MenuTrigger } from '../ui/menu.tsx';
import { Tooltip } from '../ui/tooltip.tsx';
import { QUICK_REACTIONS } from './emoji-data.ts';
import { EmojiPicker } from './emoji-picker.tsx';
import { htmlPreview } from './message-html.ts';
import { onToolbarKeyDown } from './message-keys.ts';

export interface MessageAbilities {
  canEdit: boolean;
  canDelete: boolean;
  canPin: boolean;
  /** A confirmed message: others can react to it, reply to it, star and forward it. */
  isShared: boolean;
}

export interface MessageActionHandlers {
  reply: () => void;
  edit: () => void;
  remove: () => void;
  forward: () => void;
}

function MoreMenu({
  message,
  abilities,
  on,
  open,
  onOpenChange,
  trigger,
}: {
  message: MessageDoc;
  abilities: MessageAbilities;
  on: MessageActionHandlers;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger: React.ReactNode;
}) {
  const react = (emoji: string) => void toggleReaction(message.genId, emoji).catch(notifyError);
  return (
    <Menu open={open} onOpenChange={onOpenChange} modal={false}>
      <MenuTrigger asChild>{trigger}</MenuTrigger>
      <MenuContent align="end">
        {abilities.isShared ? (
          <>
            <div className="flex items-center justify-between gap-1 px-1 pb-1 md:hidden">
              {QUICK_REACTIONS.map((emoji) => (
                <button
                  key={emoji}
                  type="button"
                  aria-label={`React with ${emoji}`}
                  onClick={() => {
                    react(emoji);
                    onOpenChange?.(false);
                  }}
                  className="flex size-9 items-center justify-center rounded-full bg-surface-2 text-lg hover:bg-hover"
                >
                  {emoji}
                </button>
              ))}
            </div>
            <MenuItem icon={<Reply />} onSelect={on.reply}>
              Reply
            </MenuItem>
            <MenuItem
              icon={message.isStarred ? <StarOff /> : <Star />}
              onSelect={() => void toggleStarredMessage(message.genId).catch(notifyError)}
            >
              {message.isStarred ? 'Remove star' : 'Star message'}
            </MenuItem>
            {abilities.canPin ? (
              <MenuItem
                icon={message.isPinned ? <PinOff /> : <Pin />}
                onSelect={() => void togglePinMessage(message.genId).catch(notifyError)}
              >
                {message.isPinned ? 'Unpin from channel' : 'Pin to channel'}
              </MenuItem>
            ) : null}
            <MenuItem icon={<Forward />} onSelect={on.forward}>
              Forward
            </MenuItem>
          </>
        ) : null}
        <MenuItem
          icon={<Copy />}
          onSelect={() => void navigator.clipboard?.writeText(htmlPreview(message.content)).catch(() => {})}
        >
          Copy text
        </MenuItem>
        {abilities.canEdit || abilities.canDelete ? <MenuSeparator /> : null}
        {abilities.canEdit ? (
          <MenuItem icon={<Pencil />} onSelect={on.edit}>
            Edit message
          </MenuItem>
        ) : null}
        {abilities.canDelete ? (
          <MenuItem icon={<Trash2 />} destructive onSelect={on.remove}>
            Delete message
          </MenuItem>
        ) : null}
      </MenuContent>
    </Menu>
  );
}

const toolButton =
  'flex size-7 items-center justify-center rounded-md text-muted hover:bg-hover hover:text-fg [&_svg]:size-4';

/** Desktop: floats at the message's top right while hovered, focused from the keyboard, or its menu is open. */
export function MessageToolbar({
  message,
  abilities,
  on,
}: {
  message: MessageDoc;
  abilities: MessageAbilities;
  on: MessageActionHandlers;
}) {
  const react = (emoji: string) => void toggleReaction(message.genId, emoji).catch(notifyError);
  return (
    <div
      role="toolbar"
      aria-label="Message actions"
      onKeyDown={onToolbarKeyDown}
      className={cn(
        'absolute -top-3.5 right-4 z-10 hidden items-center gap-0.5 rounded-lg border border-line bg-surface p-0.5 shadow-sm',
        'md:group-hover:flex md:group-focus-visible:flex md:group-data-[keys]:flex md:has-[[data-state=open]]:flex',
      )}
    >
      {abilities.isShared ? (
        <>
          {QUICK_REACTIONS.slice(0, 3).map((emoji) => (
            <button
              key={emoji}
              type="button"
              tabIndex={-1}
              aria-label={`React with ${emoji}`}
              onClick={() => react(emoji)}
              className={cn(toolButton, 'text-[15px]')}
            >
              {emoji}
            </button>
          ))}
          <EmojiPicker
            label="Add reaction"
            align="end"
            onPick={react}
            trigger={
              <button type="button" tabIndex={-1} aria-label="Add reaction" className={toolButton}>
                <SmilePlus aria-hidden />
              </button>
            }
          />
          <Tooltip content="Reply">
            <button type="button" tabIndex={-1} aria-label="Reply" onClick={on.reply} className={toolButton}>
              <Reply aria-hidden />
            </button>
          </Tooltip>
          <Tooltip content={message.isStarred ? 'Remove star' : 'Star'}>
            <button
              type="button"
              tabIndex={-1}
              aria-label={message.isStarred ? 'Remove star' : 'Star message'}
              aria-pressed={message.isStarred}
              onClick={() => void toggleStarredMessage(message.genId).catch(notifyError)}
              className={cn(toolButton, message.isStarred && 'text-accent')}
            >
              <Star aria-hidden className={message.isStarred ? 'fill-current' : undefined} />
            </button>
          </Tooltip>
        </>
      ) : null}
      <MoreMenu
        message={message}
        abilities={abilities}
        on={on}
        trigger={
          <button type="button" tabIndex={-1} aria-label="More message actions" className={toolButton}>
            <MoreHorizontal aria-hidden />
          </button>
        }
      />
    </div>
  );
}

/**
 * Phones: a quiet "…" at the top right; a long press on the message opens it too (`open`). On a message
 * that continues its author's group it shows only while that message is tapped or focused: one "…" per
 * line made a column of dots down the screen.
 */
export function MessageMenuButton({
  message,
  abilities,
  on,
  open,
  onOpenChange,
  armed,
  continued = false,
}: {
  message: MessageDoc;
  abilities: MessageAbilities;
  on: MessageActionHandlers;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The message has been pointed at, focused or its menu opened: the menu is built. Before, a tap opens it. */
  armed: boolean;
  /** The message continues its author's group (no name above it). */
  continued?: boolean;
}) {
  const button = (
    <button
      type="button"
      tabIndex={-1}
      data-message-menu
      aria-label="Message actions"
      aria-haspopup="menu"
      aria-expanded={open}
      onClick={armed ? undefined : () => onOpenChange(true)}
      className={cn(
        'absolute top-1 right-2 flex size-7 items-center justify-center rounded-md text-faint hover:bg-hover md:hidden',
        continued &&
          'hidden group-focus-within:flex group-active:flex group-data-[keys]:flex data-[state=open]:flex',
      )}
    >
      <MoreHorizontal className="size-4" aria-hidden />
    </button>
  );
  if (!armed) return button;
  return (
    <MoreMenu
      message={message}
      abilities={abilities}
      on={on}
      open={open}
      onOpenChange={onOpenChange}
      trigger={button}
    />
  );
}
