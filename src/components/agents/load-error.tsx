// A list that could not be loaded: the server's message, in place of the list.
import { CircleAlert } from 'lucide-react';

export function LoadError({ message, title = 'Could not load this' }: { message: string; title?: string }) {
  return (
    <div
      role="alert"
      className="flex items-start gap-3 rounded-xl border border-danger/30 bg-danger-soft/50 px-4 py-3 text-sm"
    >
      <CircleAlert className="mt-0.5 size-4 shrink-0 text-danger" aria-hidden />
      <div className="min-w-0">
        <p className="font-medium">{title}</p>
        <p className="text-[13px] text-muted">{message}</p>
      </div>
    </div>
  );
}
