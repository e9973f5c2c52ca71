// /metrics/latest-channels: the newest channels, who made them and how far they have come.
import { useWorkspace } from '../../app/workspace-context.ts';
import { useLatestChannels } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { ChannelNameCell } from './channel-name-cell.tsx';
import { downloadCsv, toCsv } from './csv.ts';
import { formatCount, formatInstantDay } from './format.ts';
import { useMetricsRange } from './metrics-range.ts';
import { CsvButton, EmptyNote, MetricTable, Num, Panel, RemoteBlock } from './panel.tsx';
import { RankedBars } from './ranked-bars.tsx';

export function LatestChannelsScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const state = useLatestChannels(institution.id, window);
  return (
    <RemoteBlock
      state={state}
      onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}
      isEmpty={(a) => a.data.length === 0}
      empty={
        <EmptyNote title="No new channels in this period">
          Channels created in this period appear here.
        </EmptyNote>
      }
    >
      {({ data }) => {
        const exportCsv = () =>
          downloadCsv(
            `latest-channels-${preset}.csv`,
            toCsv(
              ['Channel', 'Type', 'Created', 'Created by', 'Members', 'Messages'],
              data.map((c) => [c.name, c.type, c.createdAt, c.createdBy?.name ?? '', c.members, c.messages]),
            ),
          );
        return (
          <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <Panel title="Messages so far" description="The ten newest channels.">
              <RankedBars
                label="Messages in the newest channels"
                data={data.slice(0, 10).map((c) => ({
                  key: c.channelId,
                  name: `#${c.name}`,
                  value: c.messages,
                  valueText: `${formatCount(c.messages)} ${c.messages === 1 ? 'message' : 'messages'}`,
                }))}
              />
            </Panel>
            <Panel
              title="Newest channels"
              description="Newest first."
              actions={<CsvButton onExport={exportCsv} />}
            >
              <MetricTable
                minWidth={500}
                caption="Latest channels"
                head={[
                  { label: 'Channel' },
                  { label: 'Created' },
                  { label: 'Members', numeric: true },
                  { label: 'Messages', numeric: true },
                ]}
              >
                {data.map((c) => (
                  <tr key={c.channelId}>
                    <ChannelNameCell name={c.name} type={c.type}>
                      {c.createdBy ? (
                        <span className="block truncate text-xs text-muted">by {c.createdBy.name}</span>
                      ) : null}
                    </ChannelNameCell>
                    <td className="whitespace-nowrap text-muted">{formatInstantDay(c.createdAt)}</td>
                    <Num>{formatCount(c.members)}</Num>
                    <Num>{formatCount(c.messages)}</Num>
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
