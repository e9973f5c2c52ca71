// One tool call of an agent's run, under its answer: the tool and the connection that offers it, the
// arguments (pretty JSON) and the result, both foldable, and its state. A call waiting for approval shows
// Approve and Reject to the member who asked (only they may decide); everyone else sees whom it waits for.
import {
  AlertTriangle,
  Ban,
  Check,
  ChevronRight,
  Hand,
  Loader2,
  type LucideIcon,
  ShieldAlert,
  Wrench,
} from 'lucide-react';
import { useState } from 'react';
import type { AgentToolCall, AgentToolCallStatus } from '../../../schemas/protocol/index.ts';
import { notifyError } from '../../app/notify.ts';
import { decideToolCall } from '../../data/agents.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';

const STATUS: Record<AgentToolCallStatus, { label: string; icon: LucideIcon; className: string }> = {
  running: {
    label: 'Running',
    icon: Loader2,
    className: 'bg-sky-500/12 text-sky-700 dark:text-sky-300 [&_svg]:animate-spin',
  },
  awaiting_approval: { label: 'Needs approval', icon: Hand, className: 'bg-accent-soft text-accent-fg' },
  rejected: { label: 'Rejected', icon: Ban, className: 'bg-hover text-muted' },
  succeeded: {
    label: 'Done',
    icon: Check,
    className: 'bg-emerald-500/12 text-emerald-700 dark:text-emerald-300',
  },
  failed: { label: 'Failed', icon: AlertTriangle, className: 'bg-danger-soft text-danger' },
};

/** Arguments as the model gave them, indented when they are JSON. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function ToolStatusChip({ status }: { status: AgentToolCallStatus }) {
  const { label, icon: Icon, className } = STATUS[status];
  return (
    <span
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full px-2 text-[11px] font-medium',
        className,
      )}
      data-testid="tool-status"
    >
      <Icon className="size-3" aria-hidden />
      {label}
    </span>
  );
}

function Fold({
  label,
  text,
  defaultOpen,
  tone,
}: {
  label: string;
  text: string;
  defaultOpen: boolean;
  tone?: 'danger';
}) {
  return (
    <details open={defaultOpen} className="group border-t border-line">
      <summary className="flex cursor-pointer list-none items-center gap-1 px-3 py-1.5 text-[12px] font-medium text-muted select-none hover:text-fg [&::-webkit-details-marker]:hidden">
        <ChevronRight className="size-3.5 transition-transform group-open:rotate-90" aria-hidden />
        {label}
      </summary>
      <pre
        className={cn(
          'mx-3 mb-2.5 max-h-64 overflow-auto rounded-md border border-line bg-surface px-2.5 py-2 font-mono text-[12px] leading-relaxed break-words whitespace-pre-wrap',
          tone === 'danger' && 'border-danger/30 text-danger',
        )}
      >
        {text}
      </pre>
    </details>
  );
}

export interface ToolCallPlace {
  institutionId: string;
  channelId: string;
  /** The answer's server id; null while it is not stored (never the case for an agent's answer). */
  messageId: string | null;
}

export function ToolCallCard({
  call,
  place,
  canDecide,
  askerName,
}: {
  call: AgentToolCall;
  place: ToolCallPlace;
  /** The reader is the member who asked: only they may approve or reject. */
  canDecide: boolean;
  askerName: string;
}) {
  const [deciding, setDeciding] = useState<'approve' | 'reject' | null>(null);
  const awaiting = call.status === 'awaiting_approval';
  const args = prettyJson(call.arguments);

  async function decide(approve: boolean) {
    if (!place.messageId) return;
    setDeciding(approve ? 'approve' : 'reject');
    try {
      await decideToolCall({
        institutionId: place.institutionId,
        channelId: place.channelId,
        messageId: place.messageId,
        toolCallId: call.id,
        approve,
      });
      // Stay disabled: the card changes when the server's edit of the answer arrives.
    } catch (err) {
      notifyError(err);
      setDeciding(null);
    }
  }

  return (
    <section
      aria-label={`Tool call ${call.name}: ${STATUS[call.status].label}`}
      className={cn(
        'mt-1.5 max-w-xl overflow-hidden rounded-lg border bg-surface-2 text-[13px]',
        awaiting ? 'border-accent/50 shadow-[0_0_0_3px_var(--accent-soft)]' : 'border-line',
      )}
      data-testid="tool-call"
      data-status={call.status}
    >
      <header className="flex items-center gap-2.5 px-3 py-2">
        <span className="flex size-7 shrink-0 items-center justify-center rounded-md border border-line bg-surface text-muted">
          <Wrench className="size-3.5" aria-hidden />
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-mono text-[12.5px] font-semibold">{call.name}</p>
          <p className="flex min-w-0 items-center gap-1 text-[11px] text-muted">
            <span className="truncate">via {call.connectionName}</span>
            {call.destructive ? (
              <span className="inline-flex shrink-0 items-center gap-0.5 text-accent-fg">
                · <ShieldAlert className="size-3" aria-hidden /> can change data
              </span>
            ) : null}
          </p>
        </div>
        <ToolStatusChip status={call.status} />
      </header>
      {args && args !== '{}' ? <Fold label="Arguments" text={args} defaultOpen={awaiting} /> : null}
      {call.result !== null ? (
        <Fold
          label={call.status === 'failed' ? 'Error' : 'Result'}
          text={call.result}
          defaultOpen={call.status === 'failed' || call.result.length <= 240}
          tone={call.status === 'failed' ? 'danger' : undefined}
        />
      ) : null}
      {awaiting ? (
        <footer className="flex flex-wrap items-center gap-2 border-t border-line bg-accent-soft/30 px-3 py-2">
          {canDecide ? (
            <>
              <span className="mr-auto text-[12px] text-fg/80">The agent wants to run this tool.</span>
              <div className="ml-auto flex gap-2">
                <Button
                  size="sm"
                  variant="outline"
                  loading={deciding === 'reject'}
                  disabled={deciding !== null}
                  onClick={() => void decide(false)}
                >
                  <Ban aria-hidden />
                  Reject
                </Button>
                <Button
                  size="sm"
                  loading={deciding === 'approve'}
                  disabled={deciding !== null}
                  onClick={() => void decide(true)}
                >
                  <Check aria-hidden />
                  Approve
                </Button>
              </div>
            </>
          ) : (
            <span className="flex items-center gap-1.5 text-[12px] text-muted">
              <Hand className="size-3.5" aria-hidden />
              Waiting for {askerName} to approve
            </span>
          )}
        </footer>
      ) : null}
    </section>
  );
}
