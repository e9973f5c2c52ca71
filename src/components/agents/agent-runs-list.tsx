// An agent's recent runs as audited (admins): who asked where, the outcome, tokens, tools and time taken.
import { History } from 'lucide-react';
import { Link } from 'react-router';
import type { AgentRun, AgentRunOutcome } from '../../../schemas/protocol/index.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useAgentRuns } from '../../data/agents.ts';
import { useChannels } from '../../data/channels.ts';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { compactCount, relativeTime } from './format.ts';
import { LoadError } from './load-error.tsx';
import { type ChipTone, StatusChip } from './status-chip.tsx';

const OUTCOMES: Record<AgentRunOutcome, { label: string; tone: ChipTone }> = {
  succeeded: { label: 'Answered', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
  stopped: { label: 'Stopped', tone: 'accent' },
  refused: { label: 'Refused', tone: 'neutral' },
};

export function AgentRunsList({ institutionId, agentId }: { institutionId: string; agentId: string }) {
  const runs = useAgentRuns(institutionId, agentId);
  return (
    <section aria-labelledby={`${agentId}-runs`} className="flex flex-col gap-3">
      <div>
        <h2 id={`${agentId}-runs`} className="text-sm font-semibold">
          Recent runs
        </h2>
        <p className="text-[13px] text-muted">The last questions it was asked and how each ended.</p>
      </div>
      {runs.data === undefined ? (
        runs.error ? (
          <LoadError
            title="Runs are not available"
            message={runs.status === 404 ? 'This server does not report agent runs yet.' : runs.error}
          />
        ) : (
          <Spinner />
        )
      ) : runs.data.length === 0 ? (
        <EmptyState
          icon={History}
          title="Not asked anything yet"
          className="rounded-xl border border-dashed border-line py-8"
        >
          Mention it in a channel, or message it directly.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Runs">
          {runs.data.map((run) => (
            <RunRow key={run.id} run={run} institutionId={institutionId} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RunRow({ run, institutionId }: { run: AgentRun; institutionId: string }) {
  const { membersById } = useWorkspace();
  const channels = useChannels(institutionId);
  const asker = membersById.get(run.askerMemberId);
  const channel = channels?.channels.find((c) => c.id === run.channelId);
  const outcome = OUTCOMES[run.outcome];
  const where = channel
    ? channel.type === 'direct_message'
      ? 'a direct message'
      : `#${channel.name}`
    : 'a channel';
  return (
    <li className="flex flex-col gap-1 px-3 py-2.5 text-sm">
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <StatusChip tone={outcome.tone}>{outcome.label}</StatusChip>
        <span className="min-w-0 truncate">
          {asker?.name || asker?.email || 'Someone'} in{' '}
          {channel ? (
            <Link to={`/client/${institutionId}/channel/${channel.id}`} className="hover:underline">
              {where}
            </Link>
          ) : (
            where
          )}
        </span>
        <span className="ml-auto text-xs whitespace-nowrap text-muted">{relativeTime(run.createdAt)}</span>
      </div>
      <p className="text-xs text-muted tabular-nums">
        {[
          run.model ?? 'no model',
          `${compactCount(run.tokensIn)} in / ${compactCount(run.tokensOut)} out`,
          run.toolCalls.length ? `tools: ${run.toolCalls.join(', ')}` : null,
          `${(run.durationMs / 1000).toFixed(1)} s`,
        ]
          .filter(Boolean)
          .join(' · ')}
      </p>
      {run.error ? <p className="text-xs text-danger">{run.error}</p> : null}
    </li>
  );
}
