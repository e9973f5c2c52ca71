// A list of short values typed as chips (spec §9 tags input): e-mail addresses for invitations and
// groups. A value is added with Enter, a comma, a semicolon or a space, or many at once by pasting a list;
// Backspace in the empty field takes the last one back. What is still being typed is the form's to add
// on submit (withPending): adding it on blur would move the submit button under the pointer's click. An optional maximum
// (0 means unlimited), and duplicates refused unless allowed. A value that fails `validate` stays, marked,
// so the person can see which one to fix.
import { X } from 'lucide-react';
import { type ClipboardEvent, type KeyboardEvent, useState } from 'react';
import { cn } from './cn.ts';

export interface TagRules {
  /** Most values the list takes; 0 (the default) means unlimited. */
  max?: number;
  allowDuplicates?: boolean;
  /** How a value is kept (e-mail addresses: trimmed and lower-cased). */
  normalize?: (text: string) => string;
}

const SEPARATORS = /[\s,;]+/;

/** `texts` added to `tags` under `rules`: the new list, and a sentence for each value left out. */
export function addTags(
  tags: readonly string[],
  texts: readonly string[],
  rules: TagRules = {},
): { tags: string[]; refused: string[] } {
  const { max = 0, allowDuplicates = false, normalize = (t: string) => t.trim() } = rules;
  const next = [...tags];
  const refused: string[] = [];
  for (const text of texts) {
    const value = normalize(text);
    if (!value) continue;
    if (!allowDuplicates && next.includes(value)) {
      refused.push(`${value} is already in the list`);
    } else if (max > 0 && next.length >= max) {
      refused.push(`Up to ${max} at a time: ${value} was left out`);
    } else {
      next.push(value);
    }
  }
  return { tags: next, refused };
}

/** Splits typed or pasted text on commas, semicolons, spaces and new lines. */
export function splitTags(text: string): string[] {
  return text.split(SEPARATORS).filter(Boolean);
}

/** The list with what is still being typed added, as a form sends it. */
export function withPending(tags: readonly string[], text: string, rules?: TagRules): string[] {
  return addTags(tags, splitTags(text), rules).tags;
}

export function TagsInput({
  id,
  tags,
  onChange,
  text,
  onTextChange: setText,
  rules,
  validate,
  placeholder,
  describedBy,
  invalid,
  autoFocus,
}: {
  id: string;
  tags: string[];
  onChange: (tags: string[]) => void;
  /** What is being typed, not yet a value. */
  text: string;
  onTextChange: (text: string) => void;
  rules?: TagRules;
  /** A sentence when a value cannot be used as it is (shown on its chip), else null. */
  validate?: (value: string) => string | null;
  placeholder?: string;
  describedBy?: string;
  invalid?: boolean;
  autoFocus?: boolean;
}) {
  const [notice, setNotice] = useState<string | null>(null);

  function add(texts: string[]) {
    const result = addTags(tags, texts, rules);
    if (result.tags.length !== tags.length) onChange(result.tags);
    setNotice(result.refused.length ? result.refused.join('. ') : null);
    setText('');
  }

  function remove(index: number) {
    onChange(tags.filter((_, i) => i !== index));
    setNotice(null);
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (
      (event.key === 'Enter' || event.key === ',' || event.key === ';' || event.key === ' ') &&
      text.trim()
    ) {
      // Enter in an empty field still submits the form.
      event.preventDefault();
      add([text]);
    } else if (event.key === 'Backspace' && text === '' && tags.length > 0) {
      // The last value comes back as text to correct, as in a mail client.
      event.preventDefault();
      const last = tags[tags.length - 1] ?? '';
      onChange(tags.slice(0, -1));
      setText(last);
    }
  }

  function paste(event: ClipboardEvent<HTMLInputElement>) {
    const pasted = event.clipboardData.getData('text');
    if (!SEPARATORS.test(pasted.trim())) return;
    event.preventDefault();
    add(splitTags(`${text}${pasted}`));
  }

  const noticeId = `${id}-notice`;
  return (
    <div className="flex flex-col gap-1">
      {/* A click anywhere in the box is a click in its field. */}
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the field inside takes the keys */}
      <div
        className={cn(
          'flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-line-strong bg-surface px-2 py-1.5 text-sm shadow-xs focus-within:border-accent focus-within:ring-2 focus-within:ring-ring',
          invalid && 'border-danger',
        )}
        onClick={(event) => (event.currentTarget.querySelector('input') as HTMLInputElement | null)?.focus()}
      >
        <ul className="contents" aria-label="Added">
          {tags.map((tag, index) => {
            const problem = validate?.(tag) ?? null;
            return (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: duplicates may be allowed; a chip is its place
                key={`${tag}-${index}`}
                className={cn(
                  'inline-flex max-w-full items-center gap-1 rounded bg-surface-2 py-0.5 pr-0.5 pl-2 text-[13px] text-fg',
                  problem && 'bg-danger-soft text-danger ring-1 ring-danger',
                )}
                title={problem ?? undefined}
              >
                <span className="truncate">{tag}</span>
                {problem ? <span className="sr-only">: {problem}</span> : null}
                <button
                  type="button"
                  className="rounded p-0.5 text-muted hover:bg-hover hover:text-fg focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
                  aria-label={`Remove ${tag}`}
                  onClick={(event) => {
                    event.stopPropagation();
                    remove(index);
                  }}
                >
                  <X className="size-3" aria-hidden />
                </button>
              </li>
            );
          })}
        </ul>
        <input
          id={id}
          value={text}
          onChange={(event) => {
            const typed = event.target.value;
            // A separator typed mid-text (or from autofill) splits there too.
            if (SEPARATORS.test(typed) && typed.trim()) add(splitTags(typed));
            else setText(typed.trimStart());
          }}
          onKeyDown={keyDown}
          onPaste={paste}
          placeholder={tags.length ? undefined : placeholder}
          aria-describedby={[describedBy, notice ? noticeId : null].filter(Boolean).join(' ') || undefined}
          aria-invalid={invalid ? true : undefined}
          // biome-ignore lint/a11y/noAutofocus: the dialog's only field; it opened to be typed in
          autoFocus={autoFocus}
          className="min-w-32 flex-1 bg-transparent py-0.5 text-sm text-fg outline-none placeholder:text-faint"
        />
      </div>
      <p id={noticeId} className="text-xs text-muted" aria-live="polite">
        {notice}
      </p>
    </div>
  );
}
