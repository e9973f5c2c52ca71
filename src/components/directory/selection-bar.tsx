// The directory's bar for admins: tick every member the filters show, see how many are ticked, and open the
// role change for them.
import { UserCog, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Button } from '../ui/button.tsx';

export function SelectionBar({
  shownCount,
  shownSelected,
  selectedCount,
  onToggleAll,
  onClear,
  onChangeRole,
}: {
  /** Rows the filters show that can be ticked. */
  shownCount: number;
  shownSelected: number;
  selectedCount: number;
  onToggleAll: () => void;
  onClear: () => void;
  onChangeRole: () => void;
}) {
  const all = useRef<HTMLInputElement>(null);
  const some = shownSelected > 0 && shownSelected < shownCount;
  useEffect(() => {
    // Only a property, not an attribute: "some of them" for the select-all box.
    if (all.current) all.current.indeterminate = some;
  }, [some]);

  return (
    <div className="sticky top-0 z-10 border-b border-line bg-surface/95 backdrop-blur">
      <div className="mx-auto flex h-11 max-w-3xl items-center gap-2 px-3.5 md:px-5">
        <label className="flex min-w-0 cursor-pointer items-center gap-2.5 text-[13px] text-muted">
          <input
            ref={all}
            type="checkbox"
            checked={shownCount > 0 && shownSelected === shownCount}
            disabled={shownCount === 0}
            onChange={onToggleAll}
            // The phone shows "All" beside it; the name stays whole for screen readers.
            aria-label="Select all shown"
            className="size-4 accent-[var(--accent)]"
          />
          <span className="truncate" aria-hidden>
            <span className="sm:hidden">All</span>
            <span className="max-sm:hidden">Select all shown</span>
          </span>
        </label>
        <span className="ml-auto shrink-0 text-[13px] font-medium tabular-nums" aria-live="polite">
          {selectedCount > 0 ? `${selectedCount} selected` : ''}
        </span>
        {selectedCount > 0 ? (
          <>
            <Button size="sm" onClick={onChangeRole}>
              <UserCog aria-hidden />
              Change role…
            </Button>
            <Button
              size="icon"
              variant="ghost"
              onClick={onClear}
              aria-label="Clear the selection"
              className="size-8"
            >
              <X aria-hidden />
            </Button>
          </>
        ) : null}
      </div>
    </div>
  );
}
