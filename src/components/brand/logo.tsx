// Lantern's mark and wordmark: a small lantern on a warm tile (same drawing as public/icons/icon.svg).
import { cn } from '../ui/cn.ts';

export function LanternMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={cn('size-8', className)} aria-hidden>
      <rect width="32" height="32" rx="8" fill="#d97706" />
      <path
        d="M12.5 8.5a3.5 3.5 0 0 1 7 0"
        fill="none"
        stroke="#fff"
        strokeWidth="1.6"
        strokeLinecap="round"
      />
      <rect x="10.5" y="9.5" width="11" height="2.6" rx="1.2" fill="#fff" />
      <rect x="11.5" y="12.6" width="9" height="11" rx="2.4" fill="none" stroke="#fff" strokeWidth="1.6" />
      <path d="M16 15.2c1.5 1.6 2 2.7 2 3.6a2 2 0 0 1-4 0c0-.9.5-2 2-3.6z" fill="#fde68a" />
      <rect x="10.5" y="23.4" width="11" height="2.4" rx="1.2" fill="#fff" />
    </svg>
  );
}

export function Wordmark({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <LanternMark className="size-7" />
      Lantern
    </span>
  );
}
