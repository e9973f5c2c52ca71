// The composer (spec §4) on TipTap: a textbox labelled "Message #channel" (or "Message {person}") with
// formatting, '@' mention chips, emoji and a reply quote. Enter sends and Shift+Enter breaks the line
// (swapped by the showAdvancedKeyboard setting); Up in an empty box edits one's last message. Every
// change is saved as the channel's draft, so what was typed survives a reload, a crash or a dead server.
// A send that cannot succeed is not offered (send-blockers.ts): a file over the server's limit is refused
// before it uploads, and a message whose file failed to upload waits until it is retried or removed.
import type { Editor } from '@tiptap/core';
import { EditorContent, useEditor } from '@tiptap/react';
import { AlertCircle, Reply, SendHorizontal, X } from 'lucide-react';
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { MessageDoc } from '../../../schemas/collections.ts';
import type { Attachment } from '../../../schemas/protocol/index.ts';
import { MESSAGE_CONTENT_MAX } from '../../../schemas/protocol/limits.ts';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useConnection } from '../../data/connection.ts';
import { followDraft } from '../../data/drafts.ts';
import { fileMaxBytes, partitionBySize } from '../../data/file-limit.ts';
import { sendMessage } from '../../data/messages.ts';
import { useSettings } from '../../data/settings.ts';
import { addAttachment, removeAttachment, useResumeUploads, useUploads } from '../../data/uploads.ts';
import { cn } from '../ui/cn.ts';
import { ComposerActions } from './composer-actions.tsx';
import { ComposerAttachments } from './composer-attachments.tsx';
import { CHANNEL_COMPOSER_ATTRIBUTE, honourComposerFocus } from './composer-focus.ts';
import { ComposerToolbar } from './composer-toolbar.tsx';
import { useConversation } from './conversation-context.ts';
import { DraftStatus, useDraftWriter } from './draft-writer.tsx';
import {
  type EditorKeyHandlers,
  editorExtensions,
  type MentionBridge,
  type MentionItem,
  mentionsOf,
} from './editor-extensions.ts';
import { MentionMenu, type MentionMenuHandle } from './mention-menu.tsx';
import { htmlPreview } from './message-html.ts';
import { PollDialog } from './poll-dialog.tsx';
import { fileTooLargeMessage, sendBlocker } from './send-blockers.ts';

export interface ComposerProps {
  institutionId: string;
  channelId: string;
  /** Accessible name and placeholder: 'Message #general' or 'Message Ada Lovelace'. */
  label: string;
  /** My newest confirmed message here, read when Up in an empty composer edits it. */
  lastOwnMessage?: () => MessageDoc | null;
}

/** A markup length past the server's limit, else 0. */
const overLimit = (length: number) => (length > MESSAGE_CONTENT_MAX ? length : 0);

/**
 * Nothing a person would read: only spaces, empty lines and zero-width characters, and no mention. Such a
 * message is never sent (the server would refuse it as empty and it would sit there "Not sent").
 */
export function isBlank(editor: Editor): boolean {
  let mention = false;
  editor.state.doc.descendants((node) => {
    if (node.type.name === 'mention') mention = true;
    return !mention;
  });
  return !mention && editor.state.doc.textContent.replace(/[\s\u200b-\u200d\u2060\ufeff]/g, '') === '';
}

/** Mount with key={channelId}: one composer instance per channel keeps restore logic simple. */
export function Composer({ institutionId, channelId, label, lastOwnMessage }: ComposerProps) {
  const settings = useSettings();
  const conversation = useConversation();
  const { membersById, me } = useWorkspace();
  const drafts = useDraftWriter(institutionId, channelId);
  // The editor instance the draft was restored into: TipTap may replace its editor (it re-creates one
  // it destroyed), and a new instance starts empty and read-only again.
  const [restoredInto, setRestoredInto] = useState<Editor | null>(null);
  const restored = useRef<Editor | null>(null);
  // Read-only is said with aria-readonly too: contenteditable="false" alone still reads as a textbox one
  // can type in, to a screen reader and to test tools that wait for the composer to take text.
  const readOnly = useRef(true);
  const [empty, setEmpty] = useState(true);
  // The length of the markup to send when past the server's limit (the send waits, send-blockers.ts), else 0:
  // kept at 0 below the limit so a keystroke re-renders nothing.
  const [overLength, setOverLength] = useState(0);
  const [showToolbar, setShowToolbar] = useState(false);
  const [mention, setMention] = useState<{
    query: string;
    command: (item: MentionItem) => void;
    rect: DOMRect | null;
  } | null>(null);
  const menu = useRef<MentionMenuHandle>(null);
  const [pollOpen, setPollOpen] = useState(false);
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const uploads = useUploads(channelId);
  useResumeUploads(channelId, useConnection().status === 'connected');

  // Files refused for their size, said until the next choice or dismissal.
  const [refused, setRefused] = useState<string[]>([]);
  // Bumped by a blocked Enter, so the reason is announced again.
  const [nudge, setNudge] = useState(0);

  // Files chosen but not yet in the composer (the size check, the copy kept on the device): an Enter
  // meanwhile waits for them and sends once they are in, so a file chosen before Enter goes with the
  // message rather than being left behind in the composer.
  const adding = useRef(0);
  const sendWhenAdded = useRef(false);
  const [addedTick, setAddedTick] = useState(0);

  async function attach(chosen: File[]) {
    adding.current += 1;
    try {
      await addChosen(chosen);
    } finally {
      adding.current -= 1;
      setAddedTick((n) => n + 1);
    }
  }

  async function addChosen(chosen: File[]) {
    const max = await fileMaxBytes();
    const { accepted: files, tooLarge } = partitionBySize(chosen, max);
    setRefused(tooLarge.map((f) => fileTooLargeMessage(f.name || 'The pasted image', max)));
    for (const file of files) {
      try {
        const attachment = await addAttachment(
          institutionId,
          channelId,
          file,
          file.name || 'pasted-image.png',
        );
        setAttachments((list) => [...list, attachment]);
      } catch (error) {
        notifyError(error);
      }
    }
  }

  const handlers = useRef<EditorKeyHandlers>({ advanced: () => false, submit: () => {} });
  const mentions = useRef<MentionBridge>({
    open: (s) => setMention(s),
    close: () => setMention(null),
    keyDown: (event) => {
      if (event.key === 'Escape') {
        setMention(null);
        return true;
      }
      return menu.current?.keyDown(event) ?? false;
    },
  });

  const editor = useEditor({
    extensions: editorExtensions({ placeholder: label, handlers, mentions }),
    // Read-only until the draft is in, so nothing typed is overwritten by it. Passed on every render: TipTap
    // sets these options again after some re-renders, and a constant false there made the composer read-only.
    editable: restoredInto !== null,
    editorProps: {
      // A function, so ProseMirror asks again whenever the editor's editable state is set.
      attributes: () => ({
        role: 'textbox',
        'aria-label': label,
        ...(readOnly.current ? { 'aria-readonly': 'true' } : {}),
        [CHANNEL_COMPOSER_ATTRIBUTE]: '',
        'aria-multiline': 'true',
        enterkeyhint: 'send',
        class:
          'composer-editor message-body max-h-60 min-h-6 overflow-y-auto py-1 text-[14px] leading-6 outline-none',
      }),
      handlePaste: (_view, event) => {
        const files = Array.from(event.clipboardData?.files ?? []).filter((f) => f.type.startsWith('image/'));
        if (files.length === 0) return false;
        void attachRef.current(files);
        return true;
      },
    },
    onUpdate: ({ editor: e }) => {
      setEmpty(isBlank(e));
      const html = isBlank(e) ? '' : e.getHTML();
      drafts.persist(html);
      setOverLength(overLimit(html.length));
    },
  });
  const attachRef = useRef(attach);
  attachRef.current = attach;
  // Stable, so the memoised actions row is not re-rendered with every keystroke.
  const chooseFiles = useCallback((files: File[]) => void attachRef.current(files), []);
  const createPoll = useCallback(() => setPollOpen(true), []);
  const toggleToolbar = useCallback(() => setShowToolbar((v) => !v), []);

  // Restore once the stored draft is read; afterwards, follow edits made in another tab while this one is
  // not being typed in. Followed outside rendering: every keystroke's own write comes back as a new draft,
  // and read in render it re-rendered the whole composer for each key.
  useEffect(() => {
    if (!editor) return;
    return followDraft(channelId, (draft) => {
      // A draft read before this composer rendered is told at once, and can reach an editor TipTap has
      // already replaced (decision 0074): the composer's current editor hears it too.
      if (editor.isDestroyed) return;
      const content = draft?.content ?? '';
      if (restored.current !== editor) {
        editor.commands.setContent(content, { emitUpdate: false });
        drafts.lastWritten.current = content;
        readOnly.current = false;
        editor.setEditable(true);
        setEmpty(isBlank(editor));
        setOverLength(overLimit(content.length));
        restored.current = editor;
        setRestoredInto(editor);
        honourComposerFocus(() => editor.commands.focus('end'));
      } else if (content !== drafts.lastWritten.current && !editor.isFocused) {
        editor.commands.setContent(content, { emitUpdate: false });
        drafts.lastWritten.current = content;
        setEmpty(isBlank(editor));
        setOverLength(overLimit(content.length));
      }
    });
  }, [editor, channelId, drafts.lastWritten]);

  async function send(e: Editor) {
    if (adding.current > 0) {
      sendWhenAdded.current = true;
      return;
    }
    const files = attachmentsRef.current;
    const blank = isBlank(e);
    if (blank && files.length === 0) return;
    if (blockerRef.current) {
      setNudge((n) => n + 1);
      return;
    }
    // The same list when nothing was refused: a new empty one re-rendered the composer with every send.
    setRefused((shown) => (shown.length === 0 ? shown : []));
    const html = blank ? '' : e.getHTML();
    const json = e.getJSON();
    const replyTo = conversation?.replyTo ?? null;
    // The empty document built from the schema: clearContent parses '' as HTML (a DOMParser) on every send.
    const empty = e.schema.topNodeType.createAndFill();
    if (empty)
      e.view.dispatch(
        e.state.tr.replaceWith(0, e.state.doc.content.size, empty.content).setMeta('preventUpdate', true),
      );
    else e.commands.clearContent(false);
    // Not in the frame that shows the pending row (the send button's state and the length warning): a
    // second send meanwhile finds the editor empty and does nothing.
    startTransition(() => {
      setEmpty(true);
      setOverLength(0);
    });
    if (files.length > 0) setAttachments([]);
    // Only when replying: resetting it re-renders the whole channel screen within the sending frame.
    if (replyTo) conversation?.setReplyTo(null);
    try {
      // Called before the first await: its echo is rendered with this key press (src/store/local-echo.ts).
      await sendMessage({
        institutionId,
        channelId,
        memberId: me.id,
        content: html,
        mentions: mentionsOf(json),
        replyTo: replyTo?.id ?? undefined,
        attachments: files,
      });
      drafts.persist('');
    } catch (error) {
      // Nothing reached the outbox and the echo is gone: give the words back rather than lose them.
      e.commands.setContent(html, { emitUpdate: false });
      setEmpty(isBlank(e));
      setOverLength(overLimit(html.length));
      setAttachments(files);
      conversation?.setReplyTo(replyTo);
      notifyError(error);
    }
  }
  const attachmentsRef = useRef(attachments);
  attachmentsRef.current = attachments;
  const blocker = sendBlocker(attachments, uploads ?? [], overLength);
  const blockerRef = useRef(blocker);
  blockerRef.current = blocker;

  // The Enter that waited for chosen files: they are in this render's attachments now.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when an attach finishes
  useEffect(() => {
    if (adding.current > 0 || !sendWhenAdded.current || !editor) return;
    sendWhenAdded.current = false;
    void send(editor);
  }, [addedTick, editor]);

  handlers.current = {
    advanced: () => settings.showAdvancedKeyboard,
    submit: () => {
      if (editor) void send(editor);
    },
    upInEmpty: () => {
      const last = lastOwnMessage?.();
      if (!last || !conversation) return false;
      conversation.setEditing(last.genId);
      return true;
    },
    escape: () => {
      if (!conversation?.replyTo) return false;
      conversation.setReplyTo(null);
      return true;
    },
  };

  // Choosing Reply on a message brings the caret here.
  const replyTo = conversation?.replyTo ?? null;
  useEffect(() => {
    if (replyTo && editor) editor.commands.focus('end');
  }, [replyTo, editor]);

  if (!editor) return null;
  const replyAuthor = replyTo ? membersById.get(replyTo.memberId) : undefined;
  const hasContent = !empty || attachments.length > 0;
  const canSend = hasContent && !blocker;
  const notices = blocker ? [blocker, ...refused] : refused;
  return (
    <div className="shrink-0 px-3 pb-3 md:px-4 md:pb-4">
      <div className="rounded-lg border border-line-strong bg-surface shadow-xs focus-within:border-accent focus-within:ring-2 focus-within:ring-ring">
        {replyTo ? (
          <div
            className="flex items-center gap-2 border-b border-line px-3 py-1.5 text-[12px]"
            data-testid="reply-preview"
          >
            <Reply className="size-3.5 shrink-0 text-accent" aria-hidden />
            <span className="shrink-0 font-medium">
              Replying to {replyAuthor?.name || replyAuthor?.email || 'a message'}
            </span>
            <span className="min-w-0 flex-1 truncate text-muted">{htmlPreview(replyTo.content)}</span>
            <button
              type="button"
              aria-label="Cancel reply"
              onClick={() => conversation?.setReplyTo(null)}
              className="rounded p-0.5 text-muted hover:bg-hover hover:text-fg"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </div>
        ) : null}
        <ComposerToolbar
          editor={editor}
          className={cn('border-b border-line px-2 py-1', showToolbar ? 'flex' : 'hidden md:flex')}
        />
        <div className="px-3 pt-1">
          <EditorContent editor={editor} />
        </div>
        {attachments.length > 0 ? (
          <ComposerAttachments
            attachments={attachments}
            uploads={uploads ?? []}
            onRemove={(id) => {
              setAttachments((list) => list.filter((a) => a.id !== id));
              void removeAttachment(id).catch(notifyError);
            }}
          />
        ) : null}
        {notices.length > 0 ? (
          <div
            // A new key on a blocked Enter: screen readers announce the reason again.
            key={nudge}
            id={`composer-notice-${channelId}`}
            role="alert"
            data-testid="composer-notice"
            className="mx-3 mb-1 flex items-start gap-1.5 rounded-md bg-danger-soft px-2 py-1.5 text-[12px] text-danger"
          >
            <AlertCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            <div className="min-w-0 flex-1">
              {notices.map((text) => (
                <p key={text}>{text}</p>
              ))}
            </div>
            {refused.length > 0 && !blocker ? (
              <button
                type="button"
                aria-label="Dismiss"
                onClick={() => setRefused([])}
                className="rounded p-0.5 hover:bg-hover"
              >
                <X className="size-3.5" aria-hidden />
              </button>
            ) : null}
          </div>
        ) : null}
        <div className="flex items-center gap-0.5 px-1.5 pb-1.5">
          <ComposerActions
            editor={editor}
            showToolbar={showToolbar}
            onToggleToolbar={toggleToolbar}
            onChooseFiles={chooseFiles}
            onCreatePoll={createPoll}
          />
          <button
            type="button"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => void send(editor)}
            // Blocked by a failed file: still focusable, and it says why (the notice above).
            disabled={!hasContent}
            aria-disabled={blocker ? true : undefined}
            aria-describedby={blocker ? `composer-notice-${channelId}` : undefined}
            title={blocker ?? undefined}
            aria-label="Send message"
            className={cn(
              'ml-auto flex size-7 shrink-0 items-center justify-center rounded-md transition-colors',
              canSend ? 'bg-accent text-white hover:opacity-90' : 'text-faint',
            )}
          >
            <SendHorizontal className="size-4" aria-hidden />
          </button>
        </div>
      </div>
      <div className="mt-1 flex min-h-4 items-center justify-between gap-3 px-1 text-[11px] text-faint">
        <p className="hidden md:block">
          {settings.showAdvancedKeyboard ? (
            <>
              <kbd className="font-sans font-medium">Shift + Enter</kbd> to send ·{' '}
              <kbd className="font-sans font-medium">Enter</kbd> for a new line
            </>
          ) : (
            <>
              <kbd className="font-sans font-medium">Enter</kbd> to send ·{' '}
              <kbd className="font-sans font-medium">Shift + Enter</kbd> for a new line
            </>
          )}
        </p>
        <DraftStatus writer={drafts} shown={canSend} />
      </div>
      <PollDialog
        institutionId={institutionId}
        channelId={channelId}
        open={pollOpen}
        onOpenChange={setPollOpen}
      />
      {mention ? (
        <MentionMenu
          ref={menu}
          institutionId={institutionId}
          channelId={channelId}
          query={mention.query}
          rect={mention.rect}
          onPick={(item) => mention.command(item)}
        />
      ) : null}
    </div>
  );
}
