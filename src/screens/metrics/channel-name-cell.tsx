// The name cell of a metrics table: a channel's icon (a lock for a private one) and its name, truncated to the
// column so a long name never widens the table on a phone. Groups and members have no type and no icon.
import { Hash, Lock } from 'lucide-react';
import type { ReactNode } from 'react';

export function ChannelNameCell({
  name,
  type,
  children,
}: {
  name: string;
  type?: string | null;
  /** A second line under the name (who created it, say). */
  children?: ReactNode;
}) {
  return (
    <td className="w-full max-w-0">
      <span className="flex min-w-0 items-center gap-1.5">
        {type === 'private' ? (
          <Lock aria-label="Private" className="size-3.5 shrink-0 text-muted" />
        ) : type ? (
          <Hash aria-hidden className="size-3.5 shrink-0 text-muted" />
        ) : null}
        <span className="truncate font-medium">{name}</span>
      </span>
      {children}
    </td>
  );
}
