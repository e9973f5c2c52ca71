// Text input and label primitives: one height, one border, one focus ring across every form.
import { Label as RadixLabel } from 'radix-ui';
import type { ComponentProps, InputHTMLAttributes, Ref } from 'react';
import { cn } from './cn.ts';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

export function Input({ className, ...props }: InputProps) {
  return (
    <input
      className={cn(
        'h-9 w-full min-w-0 rounded-md border border-line-strong bg-surface px-3 text-sm text-fg shadow-xs outline-none transition-shadow placeholder:text-faint focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none disabled:opacity-60 aria-[invalid=true]:border-danger',
        className,
      )}
      {...props}
    />
  );
}

export function Label({ className, ...props }: ComponentProps<typeof RadixLabel.Root>) {
  return <RadixLabel.Root className={cn('text-[13px] font-medium text-fg', className)} {...props} />;
}

/** A short line under a field: muted help text, or the error when `error` is set. */
export function FieldMessage({
  id,
  error,
  children,
}: {
  id?: string;
  error?: boolean;
  children: React.ReactNode;
}) {
  return (
    <p
      id={id}
      className={cn('text-xs', error ? 'text-danger' : 'text-muted')}
      role={error ? 'alert' : undefined}
    >
      {children}
    </p>
  );
}

/**
 * "12/80" beside a field with a limit, quiet until the last tenth, red past it. Hidden from screen readers:
 * the field's own message says it in words once the limit is passed.
 */
export function CharacterCount({ value, max }: { value: string; max: number }) {
  const used = [...value].length;
  return (
    <span
      aria-hidden
      className={cn(
        'shrink-0 text-xs tabular-nums',
        used > max ? 'font-medium text-danger' : used >= max * 0.9 ? 'text-muted' : 'text-faint',
      )}
    >
      {used}/{max}
    </span>
  );
}
