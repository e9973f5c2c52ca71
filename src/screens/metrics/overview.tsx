// The metrics overview (/metrics): summary cards with the change against the previous period, the
// channel-creation trend by day, week or month, and when people post (the hourly heatmap).
import { format } from 'date-fns';
import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import type { MetricFigure, MetricPeriod, MetricStatsResponse } from '../../../schemas/protocol/index.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { formatFileSize } from '../../components/messages/file-size.ts';
import { cn } from '../../components/ui/cn.ts';
import { useChannelCreationTrend, useHourlyActivityHeatmap, useMetricStats } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { BarChart, type BarDatum } from './bar-chart.tsx';
import type { RangePreset } from './date-range.ts';
import { changeAgainst, formatCount, formatLocalDay } from './format.ts';
import { Heatmap } from './heatmap.tsx';
import { useMetricsRange } from './metrics-range.ts';
import { EmptyNote, Panel, RemoteBlock, Skeleton } from './panel.tsx';
import { Segmented } from './segmented.tsx';

const PREVIOUS: Record<RangePreset, string> = {
  today: 'vs yesterday',
  '7d': 'vs previous 7 days',
  '30d': 'vs previous 30 days',
  all: '',
};

interface Card {
  label: string;
  figure: (s: MetricStatsResponse) => MetricFigure;
  /** What inPeriod means for this figure ("joined"); null: the figure is itself about the period. */
  gained: string | null;
  extra?: (s: MetricStatsResponse) => string;
}

const CARDS: readonly Card[] = [
  { label: 'Members', figure: (s) => s.members, gained: 'joined' },
  { label: 'Active members', figure: (s) => s.activeMembers, gained: null },
  { label: 'Messages', figure: (s) => s.messages, gained: 'posted' },
  { label: 'Channels', figure: (s) => s.channels, gained: 'created' },
  {
    label: 'Files',
    figure: (s) => s.files,
    gained: 'shared',
    extra: (s) => `${formatFileSize(s.storageBytes.total)} stored`,
  },
  { label: 'Agents', figure: (s) => s.agents, gained: 'added' },
];

export function MetricsOverview() {
  const { institution } = useWorkspace();
  const { preset, window, period, setPeriod } = useMetricsRange();
  const stats = useMetricStats(institution.id, window);
  const trend = useChannelCreationTrend(institution.id, window, period);
  const heatmap = useHourlyActivityHeatmap(institution.id, window);
  const retry = () => void invalidateRemote(`metrics:${institution.id}:`);

  return (
    <>
      <RemoteBlock
        state={stats}
        onRetry={retry}
        skeleton={
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-3">
            {CARDS.map((c) => (
              <Skeleton key={c.label} className="h-[104px] rounded-xl" />
            ))}
          </div>
        }
      >
        {(s) => (
          <ul aria-label="Summary" className="grid grid-cols-2 gap-3 lg:grid-cols-3">
            {CARDS.map((card) => (
              <SummaryCard key={card.label} card={card} stats={s} preset={preset} />
            ))}
          </ul>
        )}
      </RemoteBlock>

      <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
        <Panel
          title="Channels created"
          description={`New channels per ${period}, weeks starting on Monday.`}
          actions={
            <Segmented<MetricPeriod>
              label="Group by"
              options={[
                { value: 'day', label: 'Day' },
                { value: 'week', label: 'Week' },
                { value: 'month', label: 'Month' },
              ]}
              value={period}
              onChange={setPeriod}
            />
          }
        >
          <RemoteBlock
            state={trend}
            onRetry={retry}
            skeleton={<Skeleton className="h-[220px]" />}
            isEmpty={(t) => t.buckets.length === 0}
            empty={<EmptyNote title="No channels in this period" />}
          >
            {(t) => (
              <BarChart
                label={`Channels created per ${t.period}`}
                data={t.buckets.map((b): BarDatum => bucket(b, t.period))}
                say={(n) => `${formatCount(n)} ${n === 1 ? 'channel' : 'channels'} created`}
              />
            )}
          </RemoteBlock>
        </Panel>

        <Panel title="When people post" description="Messages by weekday and hour, in your time zone.">
          <RemoteBlock
            state={heatmap}
            onRetry={retry}
            skeleton={<Skeleton className="h-[220px]" />}
            isEmpty={(h) => h.total === 0}
            empty={<EmptyNote title="No messages in this period">Posts will show up here by hour.</EmptyNote>}
          >
            {(h) => <Heatmap grid={h.grid} />}
          </RemoteBlock>
        </Panel>
      </div>
    </>
  );
}

function bucket(b: { date: string; count: number }, period: MetricPeriod): BarDatum {
  const [y, m, d] = b.date.split('-').map(Number);
  const day = new Date(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  if (period === 'month') {
    return { key: b.date, label: format(day, 'MMMM yyyy'), tick: format(day, 'MMM yy'), value: b.count };
  }
  const label = formatLocalDay(b.date);
  return {
    key: b.date,
    label: period === 'week' ? `Week of ${label}` : label,
    tick: format(day, 'MMM d'),
    value: b.count,
  };
}

function SummaryCard({
  card,
  stats,
  preset,
}: {
  card: Card;
  stats: MetricStatsResponse;
  preset: RangePreset;
}) {
  const figure = card.figure(stats);
  const change = changeAgainst(figure.inPeriod, figure.previousPeriod);
  const Icon =
    change?.direction === 'up' ? ArrowUpRight : change?.direction === 'down' ? ArrowDownRight : Minus;
  const value = card.gained === null ? figure.inPeriod : figure.total;
  return (
    <li className="flex min-w-0 flex-col rounded-xl border border-line bg-surface p-4 shadow-xs">
      <span className="text-[13px] text-muted">{card.label}</span>
      <span
        className="mt-1 text-2xl font-semibold tracking-tight tabular-nums"
        data-testid={`metric-${card.label}`}
      >
        {formatCount(value)}
      </span>
      <span className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted">
        {change ? (
          <span
            className={cn(
              'inline-flex items-center gap-0.5 rounded-full px-1.5 py-px font-medium tabular-nums',
              change.direction === 'up' && 'bg-emerald-500/12 text-emerald-700 dark:text-emerald-300',
              change.direction === 'down' && 'bg-rose-500/12 text-rose-700 dark:text-rose-300',
              change.direction === 'flat' && 'bg-hover text-muted',
            )}
          >
            <Icon aria-hidden className="size-3" />
            {change.label}
            <span className="sr-only"> {PREVIOUS[preset]}</span>
          </span>
        ) : null}
        <span className="min-w-0 truncate">
          {card.gained
            ? `${formatCount(figure.inPeriod)} ${card.gained}`
            : preset === 'all'
              ? 'posted, reacted or visited'
              : PREVIOUS[preset]}
          {card.extra ? ` · ${card.extra(stats)}` : ''}
        </span>
      </span>
    </li>
  );
}
