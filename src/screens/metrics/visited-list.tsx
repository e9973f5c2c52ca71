// What the three "most visited" pages share: the top ten as ranked bars and every row in a table with
// distinct visitors and visits, exportable as CSV.
import { ChannelNameCell } from './channel-name-cell.tsx';
import { downloadCsv, toCsv } from './csv.ts';
import type { RangePreset } from './date-range.ts';
import { formatCount } from './format.ts';
import { CsvButton, EmptyNote, MetricTable, Num, Panel } from './panel.tsx';
import { RankedBars } from './ranked-bars.tsx';

export interface VisitedRow {
  id: string;
  name: string;
  visitors: number;
  visits: number;
  type?: 'public' | 'private';
}

const TOP = 10;
const plural = (n: number, one: string) => `${formatCount(n)} ${n === 1 ? one : `${one}s`}`;

export function VisitedList({
  rows,
  noun,
  file,
  preset,
  emptyHint,
}: {
  rows: readonly VisitedRow[];
  /** 'channel', 'group', 'member': what a row is. */
  noun: string;
  /** CSV file name without extension. */
  file: string;
  preset: RangePreset;
  emptyHint: string;
}) {
  const title = `${noun[0]?.toUpperCase()}${noun.slice(1)}`;
  const exportCsv = () =>
    downloadCsv(
      `${file}-${preset}.csv`,
      toCsv(
        rows.some((r) => r.type) ? [title, 'Type', 'Visitors', 'Visits'] : [title, 'Visitors', 'Visits'],
        rows.map((r) => (r.type ? [r.name, r.type, r.visitors, r.visits] : [r.name, r.visitors, r.visits])),
      ),
    );
  if (rows.length === 0) {
    return <EmptyNote title={`No ${noun} visits in this period`}>{emptyHint}</EmptyNote>;
  }
  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <Panel title={`Top ${Math.min(TOP, rows.length)} by visits`}>
        <RankedBars
          label={`Most visited ${noun}s by visits`}
          data={rows.slice(0, TOP).map((r) => ({
            key: r.id,
            name: r.type ? `#${r.name}` : r.name,
            value: r.visits,
            valueText: plural(r.visits, 'visit'),
          }))}
        />
      </Panel>
      <Panel
        title={`All ${noun}s`}
        description={`${plural(rows.length, noun)} visited`}
        actions={<CsvButton onExport={exportCsv} />}
      >
        <MetricTable
          caption={`Most visited ${noun}s`}
          head={[{ label: title }, { label: 'Visitors', numeric: true }, { label: 'Visits', numeric: true }]}
        >
          {rows.map((r) => (
            <tr key={r.id}>
              <ChannelNameCell name={r.name} type={r.type} />
              <Num>{formatCount(r.visitors)}</Num>
              <Num>{formatCount(r.visits)}</Num>
            </tr>
          ))}
        </MetricTable>
      </Panel>
    </div>
  );
}
