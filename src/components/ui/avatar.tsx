// Avatar: the picture when there is one, else initials of the first two words on one of six colours
// chosen by the first six hex characters of the id (spec §5, §9). Each colour holds white text at 4.5:1 or
// more (WCAG AA), so the small initials stay readable.
import { Avatar as RadixAvatar } from 'radix-ui';
import { cn } from './cn.ts';

const COLOURS = [
  'bg-amber-700 text-white',
  'bg-emerald-700 text-white',
  'bg-sky-700 text-white',
  'bg-violet-600 text-white',
  'bg-rose-600 text-white',
  'bg-teal-700 text-white',
] as const;

/** Initials from the first two words of a name: "Ada Lovelace King" → "AL", "ada" → "A". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean).slice(0, 2);
  return words.map((w) => Array.from(w)[0]?.toUpperCase() ?? '').join('') || '?';
}

/** One of six colours from the first six hex characters of an id (non-hex characters are skipped). */
export function avatarColourIndex(id: string): number {
  const hex = id.replace(/[^0-9a-f]/gi, '').slice(0, 6);
  const value = hex ? Number.parseInt(hex, 16) : Array.from(id).reduce((sum, c) => sum + c.charCodeAt(0), 0);
  return value % COLOURS.length;
}

const SIZES = {
  xs: 'size-5 text-[9px] rounded',
  sm: 'size-6 text-[10px] rounded-md',
  md: 'size-9 text-xs rounded-lg',
  lg: 'size-16 text-xl rounded-2xl',
  xl: 'size-20 text-2xl rounded-[22px]',
} as const;

export interface AvatarProps {
  id: string;
  name: string;
  src?: string | null;
  size?: keyof typeof SIZES;
  online?: boolean;
  className?: string;
}

export function Avatar({ id, name, src, size = 'md', online, className }: AvatarProps) {
  return (
    <span className={cn('relative inline-flex shrink-0', className)}>
      <RadixAvatar.Root
        className={cn(
          'inline-flex items-center justify-center overflow-hidden font-semibold select-none',
          SIZES[size],
        )}
      >
        {src ? <RadixAvatar.Image src={src} alt="" className="size-full object-cover" /> : null}
        <RadixAvatar.Fallback
          delayMs={src ? 400 : 0}
          className={cn('flex size-full items-center justify-center', COLOURS[avatarColourIndex(id)])}
          aria-hidden
        >
          {initials(name)}
        </RadixAvatar.Fallback>
      </RadixAvatar.Root>
      {online !== undefined ? (
        <span
          className={cn(
            'absolute -right-0.5 -bottom-0.5 size-2.5 rounded-full border-2 border-surface',
            online ? 'bg-emerald-500' : 'bg-faint',
          )}
          role="img"
          aria-label={online ? 'Online' : 'Offline'}
        />
      ) : null}
    </span>
  );
}
