// A code entered one character per slot (spec §9 input components). One real input lies over the slots, so
// the browser's one-time-code autofill, a paste of the whole code and a screen reader all meet one field;
// the slots only draw where each character goes and which one is next.
import { useEffect, useRef, useState } from 'react';
import { cn } from './cn.ts';

export type PinMode = 'number' | 'text';

/**
 * What a typed or pasted text leaves in the slots: digits only in number mode, letters and digits in text
 * mode, never more than `length` (so "Code: 123 456" pastes as 123456).
 */
export function pinValue(raw: string, length: number, mode: PinMode = 'number'): string {
  const kept = mode === 'number' ? raw.replace(/\D/g, '') : raw.replace(/[^\p{L}\p{N}]/gu, '');
  return kept.slice(0, length);
}

/** Complete when every slot holds a character. */
export function pinComplete(value: string, length: number): boolean {
  return value.length === length;
}

export function PinInput({
  id,
  length,
  value,
  onChange,
  mode = 'number',
  autoFocus,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  length: number;
  value: string;
  /** Every change, already cleaned by pinValue. */
  onChange: (value: string) => void;
  mode?: PinMode;
  autoFocus?: boolean;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const [focused, setFocused] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Focused on arrival when asked (the code step's only field), without the autoFocus attribute.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on mount
  useEffect(() => {
    if (autoFocus) input.current?.focus();
  }, []);
  // Six slots read as two groups of three, the way people read a code aloud.
  const groups = length === 6 ? [3, 3] : [length];
  let slot = 0;
  return (
    <div className="relative w-fit">
      <div className="flex items-center gap-1.5 sm:gap-2" aria-hidden>
        {groups.map((size, g) => (
          <div key={`group-${size}-${g > 0 ? 'b' : 'a'}`} className="flex items-center gap-1.5 sm:gap-2">
            {g > 0 ? <span className="mr-2 h-0.5 w-3 rounded bg-line-strong" /> : null}
            {Array.from({ length: size }, () => {
              const at = slot++;
              const active = focused && at === Math.min(value.length, length - 1);
              return (
                <span
                  key={`slot-${at}`}
                  className={cn(
                    'flex h-11 w-9 items-center justify-center rounded-md border sm:w-11 border-line-strong bg-surface font-mono text-xl text-fg shadow-xs transition-shadow',
                    active && 'border-accent ring-2 ring-ring',
                    invalid && 'border-danger',
                  )}
                >
                  {value[at] ?? (active ? <span className="h-5 w-px animate-pulse bg-fg" /> : null)}
                </span>
              );
            })}
          </div>
        ))}
      </div>
      <input
        id={id}
        name="code"
        autoComplete="one-time-code"
        inputMode={mode === 'number' ? 'numeric' : 'text'}
        pattern={mode === 'number' ? '[0-9]*' : undefined}
        // Room for a pasted "Code: 123 456": the extra characters are dropped by pinValue.
        maxLength={length + 8}
        spellCheck={false}
        ref={input}
        disabled={disabled}
        value={value}
        onChange={(e) => onChange(pinValue(e.target.value, length, mode))}
        // The next character always goes after the last: a click on a slot does not put the caret in the
        // middle of the code. A selection (Ctrl+A, to type or paste over) is left alone.
        onSelect={(e) => {
          const input = e.currentTarget;
          const end = input.value.length;
          if (input.selectionStart === input.selectionEnd && input.selectionStart !== end)
            input.setSelectionRange(end, end);
        }}
        // A whole code pasted replaces what was typed, wherever the caret was.
        onPaste={(e) => {
          const pasted = pinValue(e.clipboardData.getData('text'), length, mode);
          if (pasted.length < length) return;
          e.preventDefault();
          onChange(pasted);
        }}
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        className="absolute inset-0 size-full cursor-text bg-transparent font-mono text-transparent caret-transparent outline-none selection:bg-transparent disabled:cursor-not-allowed"
      />
    </div>
  );
}
