// Agent usage for admins: runs, failures, tokens and tool calls per agent over the last 30 days, today's
// tokens against the workspace's daily cap, and setting or removing that cap.
import { BarChart3, Gauge } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import type { AgentUsageResponse } from '../../../schemas/protocol/index.ts';
import { errorMessage } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import { setDailyTokenCap, useAgentUsage } from '../../data/agents.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { Spinner } from '../ui/states.tsx';
import { compactCount, relativeTime } from './format.ts';
import { LoadError } from './load-error.tsx';

export const USAGE_DAYS = 30;

export function AgentUsageSection({ institutionId }: { institutionId: string }) {
  const usage = useAgentUsage(institutionId, USAGE_DAYS);
  return (
    <>
      <section aria-labelledby="agent-usage" className="flex flex-col gap-3">
        <div>
          <h2 id="agent-usage" className="text-sm font-semibold">
            Usage, last {USAGE_DAYS} days
          </h2>
          <p className="text-[13px] text-muted">Every run is recorded: who asked, where, tokens and tools.</p>
        </div>
        {usage.data ? (
          <UsageTable institutionId={institutionId} usage={usage.data} />
        ) : usage.error ? (
          <LoadError
            title="Usage is not available"
            message={usage.status === 404 ? 'This server does not report agent usage yet.' : usage.error}
          />
        ) : (
          <Spinner />
        )}
      </section>
      <section aria-labelledby="agent-cap" className="flex flex-col gap-3">
        <div>
          <h2 id="agent-cap" className="text-sm font-semibold">
            Daily token limit
          </h2>
          <p className="text-[13px] text-muted">
            When the workspace’s agents have used this many tokens since midnight (UTC), further questions get
            a short refusal until the next day.
          </p>
        </div>
        <TokenCap
          institutionId={institutionId}
          usage={usage.data}
          unavailable={usage.error !== null && !usage.data}
        />
      </section>
    </>
  );
}

function UsageTable({ institutionId, usage }: { institutionId: string; usage: AgentUsageResponse }) {
  if (usage.rows.length === 0)
    return (
      <div className="flex items-center gap-3 rounded-xl border border-dashed border-line px-4 py-6 text-[13px] text-muted">
        <BarChart3 className="size-5 shrink-0" aria-hidden />
        No agent has been asked anything in this period.
      </div>
    );
  const total = usage.rows.reduce(
    (sum, r) => ({
      runs: sum.runs + r.runs,
      failedRuns: sum.failedRuns + r.failedRuns,
      tokensIn: sum.tokensIn + r.tokensIn,
      tokensOut: sum.tokensOut + r.tokensOut,
      toolCalls: sum.toolCalls + r.toolCalls,
    }),
    { runs: 0, failedRuns: 0, tokensIn: 0, tokensOut: 0, toolCalls: 0 },
  );
  return (
    <div className="overflow-x-auto rounded-xl border border-line bg-surface">
      <table className="w-full min-w-[560px] text-sm" aria-label="Agent usage">
        <thead>
          <tr className="border-b border-line text-left text-xs text-muted">
            <th scope="col" className="px-3 py-2 font-medium">
              Agent
            </th>
            <Num>Runs</Num>
            <Num>Failed</Num>
            <Num>Tokens in</Num>
            <Num>Tokens out</Num>
            <Num>Tool calls</Num>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Last run
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {usage.rows.map((r) => (
            <tr key={r.agentId}>
              <th scope="row" className="max-w-48 truncate px-3 py-2 text-left font-medium">
                <Link
                  to={`/client/${institutionId}/settings/agents/${r.agentId}`}
                  className="hover:underline"
                >
                  {r.name}
                </Link>
              </th>
              <Cell>{r.runs.toLocaleString()}</Cell>
              <Cell className={r.failedRuns > 0 ? 'text-danger' : 'text-muted'}>
                {r.failedRuns.toLocaleString()}
              </Cell>
              <Cell>{compactCount(r.tokensIn)}</Cell>
              <Cell>{compactCount(r.tokensOut)}</Cell>
              <Cell>{r.toolCalls.toLocaleString()}</Cell>
              <td className="px-3 py-2 text-right whitespace-nowrap text-muted">
                {r.lastRunAt ? relativeTime(r.lastRunAt) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
        {usage.rows.length > 1 ? (
          <tfoot>
            <tr className="border-t border-line-strong bg-surface-2 font-medium">
              <th scope="row" className="px-3 py-2 text-left">
                Total
              </th>
              <Cell>{total.runs.toLocaleString()}</Cell>
              <Cell>{total.failedRuns.toLocaleString()}</Cell>
              <Cell>{compactCount(total.tokensIn)}</Cell>
              <Cell>{compactCount(total.tokensOut)}</Cell>
              <Cell>{total.toolCalls.toLocaleString()}</Cell>
              <td />
            </tr>
          </tfoot>
        ) : null}
      </table>
    </div>
  );
}

function Num({ children }: { children: string }) {
  return (
    <th scope="col" className="px-3 py-2 text-right font-medium whitespace-nowrap">
      {children}
    </th>
  );
}

function Cell({ children, className }: { children: string; className?: string }) {
  return <td className={cn('px-3 py-2 text-right tabular-nums', className)}>{children}</td>;
}

function TokenCap({
  institutionId,
  usage,
  unavailable,
}: {
  institutionId: string;
  usage: AgentUsageResponse | undefined;
  unavailable: boolean;
}) {
  const id = useId();
  const ownCap = usage?.dailyTokenCap ?? null;
  const serverCap = usage?.serverDailyTokenCap ?? null;
  // The lower of the two applies (decision 0013): the server's ceiling holds for every workspace.
  const cap = ownCap !== null && (serverCap === null || ownCap < serverCap) ? ownCap : serverCap;
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const shown = value ?? (ownCap === null ? '' : String(ownCap));

  async function save(next: number | null) {
    setBusy(true);
    setError(null);
    try {
      await setDailyTokenCap(institutionId, next);
      setValue(null);
      toast.success(
        next === null
          ? serverCap === null
            ? 'Daily limit removed'
            : 'The server limit applies'
          : 'Daily limit saved',
      );
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const text = shown.replace(/[\s,_]/g, '');
    if (!text) return void save(null);
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) return setError('Enter a whole number of tokens, or leave it empty');
    if (serverCap !== null && n > serverCap)
      return setError(`This server allows each workspace at most ${serverCap.toLocaleString()} tokens a day`);
    void save(n);
  }

  const today = usage?.tokensToday ?? 0;
  const share = cap ? Math.min(1, today / cap) : 0;
  return (
    <div className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-4">
      {usage ? (
        <div className="flex flex-col gap-2">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            <span className="flex items-center gap-2 font-medium">
              <Gauge className="size-4 text-muted" aria-hidden />
              Today
            </span>
            <span className="tabular-nums">
              {today.toLocaleString()} {cap ? `of ${cap.toLocaleString()} ` : ''}tokens
            </span>
          </div>
          {cap ? (
            <div className="h-2 overflow-hidden rounded-full bg-selected" aria-hidden>
              <div
                className={cn(
                  'h-full rounded-full',
                  share >= 1 ? 'bg-danger' : share > 0.8 ? 'bg-accent' : 'bg-emerald-500',
                )}
                style={{ width: `${Math.max(share * 100, today > 0 ? 2 : 0)}%` }}
              />
            </div>
          ) : (
            <p className="text-xs text-muted">
              No limit: agents may use as many tokens as the provider allows.
            </p>
          )}
        </div>
      ) : null}
      <form onSubmit={submit} className="flex flex-col gap-1.5" noValidate>
        <Label htmlFor={`${id}-cap`}>Tokens per day</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            id={`${id}-cap`}
            inputMode="numeric"
            value={shown}
            onChange={(e) => setValue(e.target.value)}
            placeholder={serverCap === null ? 'No limit' : `Server limit (${serverCap.toLocaleString()})`}
            className="w-44 tabular-nums"
            disabled={unavailable}
            aria-invalid={error ? true : undefined}
          />
          <Button type="submit" variant="outline" loading={busy} disabled={unavailable || value === null}>
            Save limit
          </Button>
          {ownCap !== null ? (
            <Button variant="ghost" onClick={() => void save(null)} disabled={busy}>
              {serverCap === null ? 'Remove limit' : 'Use the server limit'}
            </Button>
          ) : null}
        </div>
        {error ? (
          <FieldMessage error>{error}</FieldMessage>
        ) : serverCap !== null ? (
          <FieldMessage>
            This server allows each workspace at most {serverCap.toLocaleString()} tokens a day; a limit here
            can only be lower.
          </FieldMessage>
        ) : null}
      </form>
    </div>
  );
}
