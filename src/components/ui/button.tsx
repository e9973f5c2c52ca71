// Button primitive with the variants and sizes of spec §9; `loading` disables it and says 'Please wait'.
import { Loader2 } from 'lucide-react';
import { Slot } from 'radix-ui';
import type { ButtonHTMLAttributes, Ref } from 'react';
import { cn } from './cn.ts';

export type ButtonVariant = 'default' | 'destructive' | 'outline' | 'secondary' | 'ghost' | 'link';
export type ButtonSize = 'default' | 'xs' | 'sm' | 'lg' | 'icon';

const variants: Record<ButtonVariant, string> = {
  default: 'bg-primary text-primary-fg hover:opacity-90 shadow-sm',
  destructive: 'bg-danger text-danger-fg hover:opacity-90 shadow-sm',
  outline: 'border border-line-strong bg-surface text-fg hover:bg-hover',
  secondary: 'bg-selected text-fg hover:bg-hover',
  ghost: 'text-fg hover:bg-hover',
  link: 'text-accent-fg underline-offset-4 hover:underline px-0 h-auto',
};

const sizes: Record<ButtonSize, string> = {
  default: 'h-9 px-4 text-sm',
  xs: 'h-6 px-2 text-xs rounded',
  sm: 'h-8 px-3 text-[13px]',
  lg: 'h-10 px-6 text-[15px]',
  icon: 'h-8 w-8 p-0',
};

export const LOADING_LABEL = 'Please wait';

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  loading?: boolean;
  asChild?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant = 'default',
  size = 'default',
  loading = false,
  asChild = false,
  className,
  children,
  disabled,
  type = 'button',
  ...props
}: ButtonProps) {
  const classes = cn(
    'inline-flex shrink-0 select-none items-center justify-center gap-1.5 whitespace-nowrap rounded-md font-medium transition-[opacity,background-color] disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0',
    variants[variant],
    sizes[size],
    className,
  );
  if (asChild) {
    return (
      <Slot.Root className={classes} {...props}>
        {children}
      </Slot.Root>
    );
  }
  return (
    <button
      type={type}
      className={classes}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...props}
    >
      {loading ? (
        <>
          <Loader2 className="animate-spin" aria-hidden />
          {LOADING_LABEL}
        </>
      ) : (
        children
      )}
    </button>
  );
}
