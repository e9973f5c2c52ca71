// The composer: a textbox labelled "Message #channel" (or "Message {person}"); Enter sends,
// Shift+Enter adds a line. Every change is saved as the channel's draft (spec §4 Drafts), so what
// was typed survives a reload, a crash or a dead server; the draft is restored when the channel opens.
import { Lock, SendHorizontal } from 'lucide-react';
import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { saveDraft, sendMessage } from '../../data/actions.ts';
import { useDraft } from '../../data/hooks.ts';
import { cn } from '../ui/cn.ts';
import { htmlToText, textToHtml } from './message-html.ts';

const MAX_HEIGHT_PX = 240;

export interface ComposerProps {
  institutionId: string;
  channelId: string;
  /** Accessible name and placeholder: 'Message #general' or 'Message Ada Lovelace'. */
  label: string;
}

/** Shown in place of the textbox when posting is not allowed: the reason, never a silent dead box. */
export function ComposerDisabled({ reason }: { reason: string }) {
  return (
    <div className="shrink-0 px-3 pb-3 md:px-4 md:pb-4">
      <div
        role="status"
        data-testid="composer-disabled"
        className="flex items-center gap-2.5 rounded-lg border border-line bg-surface-2 px-3 py-2.5 text-[13px] text-muted"
      >
        <Lock className="size-4 shrink-0 text-faint" aria-hidden />
        <span className="min-w-0">{reason}</span>
      </div>
    </div>
  );
}

/** Mount with key={channelId}: one composer instance per channel keeps restore logic simple. */
export function Composer({ institutionId, channelId, label }: ComposerProps) {
  const draft = useDraft(channelId);
  const [text, setText] = useState('');
  const [restored, setRestored] = useState(false);
  const textarea = useRef<HTMLTextAreaElement>(null);
  /** The HTML this tab last wrote, to tell our own echo from another tab's edit. */
  const lastWritten = useRef<string>('');
  /**
   * Draft writes run one at a time, and only the newest waiting value is written next: a late
   * keystroke can never overwrite a later clear, and fast typing never builds a backlog that a
   * reload would cut short.
   */
  const writing = useRef(false);
  const next = useRef<string | null>(null);
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved'>('idle');

  // Restore once the draft query answers; afterwards, follow edits made in another tab while this
  // one is not being typed in.
  useEffect(() => {
    if (draft === undefined) return;
    const content = draft?.content ?? '';
    if (!restored) {
      setText(htmlToText(content));
      lastWritten.current = content;
      setRestored(true);
    } else if (content !== lastWritten.current && document.activeElement !== textarea.current) {
      setText(htmlToText(content));
      lastWritten.current = content;
    }
  }, [draft, restored]);

  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  });

  function persist(html: string) {
    lastWritten.current = html;
    next.current = html;
    setSaveState('saving');
    if (!writing.current) void drain();
  }

  async function drain() {
    writing.current = true;
    while (next.current !== null) {
      const content = next.current;
      next.current = null;
      try {
        await saveDraft(institutionId, channelId, { content, attachments: [] });
      } catch (error) {
        console.warn('Draft not saved', error);
      }
    }
    writing.current = false;
    setSaveState('saved');
  }

  function change(value: string) {
    setText(value);
    persist(textToHtml(value));
  }

  async function send() {
    const html = textToHtml(text);
    if (!html) return;
    setText('');
    try {
      await sendMessage({ institutionId, channelId, content: html });
      persist('');
    } catch (error) {
      // Nothing reached the outbox: give the words back rather than lose them.
      setText(text);
      notifyError(error);
    }
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  }

  const canSend = text.trim().length > 0;
  return (
    <div className="shrink-0 px-3 pb-3 md:px-4 md:pb-4">
      <div className="flex items-end gap-2 rounded-lg border border-line-strong bg-surface px-3 py-2 shadow-xs focus-within:border-accent focus-within:ring-2 focus-within:ring-ring">
        <textarea
          ref={textarea}
          value={text}
          onChange={(e) => change(e.target.value)}
          onKeyDown={keyDown}
          readOnly={!restored}
          aria-label={label}
          placeholder={label}
          rows={1}
          enterKeyHint="send"
          className="max-h-60 min-h-6 flex-1 resize-none bg-transparent py-1 text-[14px] leading-6 outline-none placeholder:text-faint"
        />
        <button
          type="button"
          onClick={() => void send()}
          disabled={!canSend}
          aria-label="Send message"
          className={cn(
            'mb-0.5 flex size-7 shrink-0 items-center justify-center rounded-md transition-colors',
            canSend ? 'bg-accent text-white hover:opacity-90' : 'text-faint',
          )}
        >
          <SendHorizontal className="size-4" aria-hidden />
        </button>
      </div>
      <div className="mt-1 flex min-h-4 items-center justify-between gap-3 px-1 text-[11px] text-faint">
        <p className="hidden md:block">
          <kbd className="font-sans font-medium">Enter</kbd> to send ·{' '}
          <kbd className="font-sans font-medium">Shift + Enter</kbd> for a new line
        </p>
        <p aria-live="polite" className="ml-auto">
          {canSend && saveState !== 'idle'
            ? saveState === 'saving'
              ? 'Saving draft…'
              : 'Draft saved on this device'
            : null}
        </p>
      </div>
    </div>
  );
}
