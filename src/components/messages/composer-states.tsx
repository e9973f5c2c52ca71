// What stands where the composer goes when the editor is not there: the reason posting is closed, and the
// frame shown while the editor's code (TipTap and ProseMirror, the largest part of the channel view) loads
// after the first messages are painted. Same size as the composer, so nothing moves when it arrives.
import { Lock } from 'lucide-react';

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

/** The composer's outline with its placeholder, until the editor is ready to type in. */
export function ComposerLoading({ label }: { label: string }) {
  return (
    <div className="shrink-0 px-3 pb-3 md:px-4 md:pb-4" data-testid="composer-loading">
      <div className="rounded-lg border border-line-strong bg-surface shadow-xs">
        <div className="hidden h-[37px] border-b border-line md:block" />
        <div className="px-3 pt-1">
          <p className="min-h-6 py-1 text-[14px] leading-6 text-faint">{label}</p>
        </div>
        <div className="h-[34px]" />
      </div>
      <div className="mt-1 min-h-4" />
    </div>
  );
}
