// A small icon-only button with a tooltip, for section and sidebar headers.
import type { ReactNode } from 'react';
import { Tooltip } from './tooltip.tsx';

export function IconAction({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip content={label}>
      <button
        type="button"
        onClick={onClick}
        aria-label={label}
        className="flex size-6 items-center justify-center rounded text-muted hover:bg-hover hover:text-fg [&_svg]:size-3.5"
      >
        {children}
      </button>
    </Tooltip>
  );
}
