// /metrics/growing-channels: messages and members each channel gained in the period, against the previous
// period of the same length, in absolute and relative terms.
import { useWorkspace } from '../../app/workspace-context.ts';
import { cn } from '../../components/ui/cn.ts';
import { useGrowingChannels } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { ChannelNameCell } from './channel-name-cell.tsx';
import { downloadCsv, toCsv } from './csv.ts';
import { formatCount, formatPercentChange, formatSignedCount } from './format.ts';
import { useMetricsRange } from './metrics-range.ts';
import { CsvButton, EmptyNote, MetricTable, Panel, RemoteBlock } from './panel.tsx';
import { RankedBars } from './ranked-bars.tsx';

interface Growth {
  gained: number;
  previousGained: number | null;
  change: number | null;
  relativeChange: number | null;
}

/** "+12 (+40%)", or just the gain where there is nothing to compare with. */
function GrowthCell({ growth }: { growth: Growth }) {
  const { change, relativeChange } = growth;
  return (
    <td className="text-right tabular-nums whitespace-nowrap">
      <span className="font-medium">{formatCount(growth.gained)}</span>
      {change !== null && !(change === 0 && growth.gained === 0) ? (
        <span
          className={cn(
            'ml-1.5 text-xs',
            change > 0
              ? 'text-emerald-700 dark:text-emerald-300'
              : change < 0
                ? 'text-rose-700 dark:text-rose-300'
                : 'text-muted',
          )}
        >
          {relativeChange !== null ? formatPercentChange(relativeChange) : formatSignedCount(change)}
        </span>
      ) : null}
    </td>
  );
}

export function GrowingChannelsScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const state = useGrowingChannels(institution.id, window);
  return (
    <RemoteBlock
      state={state}
      onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}
      isEmpty={(a) => a.data.length === 0}
      empty={
        <EmptyNote title="No channel grew in this period">
          Channels that gain messages or members appear here.
        </EmptyNote>
      }
    >
      {({ data }) => {
        const exportCsv = () =>
          downloadCsv(
            `growing-channels-${preset}.csv`,
            toCsv(
              [
                'Channel',
                'Type',
                'Messages gained',
                'Messages gained before',
                'Messages change',
                'Messages relative change',
                'Members gained',
                'Members gained before',
                'Members change',
                'Members relative change',
              ],
              data.map((c) => [
                c.name,
                c.type,
                c.messages.gained,
                c.messages.previousGained,
                c.messages.change,
                c.messages.relativeChange,
                c.members.gained,
                c.members.previousGained,
                c.members.change,
                c.members.relativeChange,
              ]),
            ),
          );
        return (
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <Panel title="Most messages gained" description="The ten fastest growing channels.">
              <RankedBars
                label="Messages gained per channel"
                data={data.slice(0, 10).map((c) => ({
                  key: c.channelId,
                  name: `#${c.name}`,
                  value: c.messages.gained,
                  valueText: `+${formatCount(c.messages.gained)} ${c.messages.gained === 1 ? 'message' : 'messages'}`,
                }))}
              />
            </Panel>
            <Panel
              title="Growth by channel"
              description={
                preset === 'all'
                  ? 'Gained since the workspace began.'
                  : 'Gained, and the change against the previous period.'
              }
              actions={<CsvButton onExport={exportCsv} />}
            >
              <MetricTable
                caption="Growing channels"
                head={[
                  { label: 'Channel' },
                  { label: 'Messages', numeric: true },
                  { label: 'Members', numeric: true },
                ]}
              >
                {data.map((c) => (
                  <tr key={c.channelId}>
                    <ChannelNameCell name={c.name} type={c.type} />
                    <GrowthCell growth={c.messages} />
                    <GrowthCell growth={c.members} />
                  </tr>
                ))}
              </MetricTable>
            </Panel>
          </div>
        );
      }}
    </RemoteBlock>
  );
}
