// /metrics/engaging-messages: messages ranked by replies, reactions and poll votes (50 a page, spec §9),
// only from channels the viewing admin may read (the server's rule). The page number is in the URL.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { useWorkspace } from '../../app/workspace-context.ts';
import { Button } from '../../components/ui/button.tsx';
import { useEngagingMessages } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { downloadCsv, toCsv } from './csv.ts';
import { formatCount, formatInstantDay } from './format.ts';
import { useMetricsRange } from './metrics-range.ts';
import { CsvButton, EmptyNote, MetricTable, Num, Panel, RemoteBlock } from './panel.tsx';
import { RankedBars } from './ranked-bars.tsx';

/** Columns a phone has no room for. */
const WIDE_ONLY = 'hidden sm:table-cell';

export function EngagingMessagesScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Math.min(10_000, Math.floor(Number(params.get('page')) || 1)));
  const state = useEngagingMessages(institution.id, window, page);
  const goTo = (next: number) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (next > 1) copy.set('page', String(next));
      else copy.delete('page');
      return copy;
    });

  return (
    <RemoteBlock
      state={state}
      onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}
      isEmpty={(a) => a.data.length === 0 && page === 1}
      empty={
        <EmptyNote title="No replies, reactions or votes in this period">
          Messages people answer, react to or vote on will be ranked here.
        </EmptyNote>
      }
    >
      {({ data, metadata }) => {
        const first = (metadata.page - 1) * metadata.limit;
        const exportCsv = () =>
          downloadCsv(
            `engaging-messages-${preset}-page-${metadata.page}.csv`,
            toCsv(
              [
                'Rank',
                'Channel',
                'Author',
                'Message',
                'Posted',
                'Replies',
                'Reactions',
                'Poll votes',
                'Score',
              ],
              data.map((m, i) => [
                first + i + 1,
                m.channelName,
                m.authorName,
                m.excerpt,
                m.createdAt,
                m.replies,
                m.reactions,
                m.pollVotes,
                m.score,
              ]),
            ),
          );
        return (
          <div className="flex flex-col gap-4">
            {metadata.page === 1 && data.length > 0 ? (
              <Panel title="Top ten" description="Replies, reactions and poll votes together.">
                <RankedBars
                  label="Most engaging messages by score"
                  data={data.slice(0, 10).map((m) => ({
                    key: m.messageId,
                    name: `${m.excerpt || '(no text)'} — ${m.authorName} in #${m.channelName}`,
                    value: m.score,
                    valueText: `${formatCount(m.score)} ${m.score === 1 ? 'interaction' : 'interactions'}`,
                  }))}
                />
              </Panel>
            ) : null}
            <Panel
              title="Ranked messages"
              description={`${formatCount(metadata.total)} ${metadata.total === 1 ? 'message' : 'messages'} with replies, reactions or votes.`}
              actions={<CsvButton onExport={exportCsv} disabled={data.length === 0} />}
            >
              <MetricTable
                caption="Engaging messages"
                head={[
                  { label: '#' },
                  { label: 'Message' },
                  // On a phone the three parts fold into a line under the message.
                  { label: 'Replies', numeric: true, className: WIDE_ONLY },
                  { label: 'Reactions', numeric: true, className: WIDE_ONLY },
                  { label: 'Votes', numeric: true, className: WIDE_ONLY },
                  { label: 'Score', numeric: true },
                ]}
              >
                {data.map((m, i) => (
                  <tr key={m.messageId}>
                    <td className="text-muted tabular-nums">{formatCount(first + i + 1)}</td>
                    <td className="w-full max-w-0">
                      <p className="line-clamp-2 break-words">
                        {m.excerpt || <em className="text-muted">No text</em>}
                      </p>
                      <p className="mt-0.5 truncate text-xs text-muted">
                        {m.authorName} in #{m.channelName} · {formatInstantDay(m.createdAt)}
                      </p>
                      <p className="mt-0.5 text-xs text-muted sm:hidden">
                        {formatCount(m.replies)} replies · {formatCount(m.reactions)} reactions ·{' '}
                        {formatCount(m.pollVotes)} votes
                      </p>
                    </td>
                    <Num className={WIDE_ONLY}>{formatCount(m.replies)}</Num>
                    <Num className={WIDE_ONLY}>{formatCount(m.reactions)}</Num>
                    <Num className={WIDE_ONLY}>{formatCount(m.pollVotes)}</Num>
                    <Num className="font-semibold">{formatCount(m.score)}</Num>
                  </tr>
                ))}
              </MetricTable>
              {metadata.page > 1 || metadata.hasMore ? (
                <nav
                  aria-label="Pages"
                  className="mt-3 flex items-center justify-between text-[13px] text-muted"
                >
                  <span>
                    Page {formatCount(metadata.page)} of{' '}
                    {formatCount(Math.max(1, Math.ceil(metadata.total / metadata.limit)))}
                  </span>
                  <span className="flex gap-2">
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={metadata.page <= 1}
                      onClick={() => goTo(metadata.page - 1)}
                    >
                      <ChevronLeft aria-hidden className="size-3.5" />
                      Previous
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={!metadata.hasMore}
                      onClick={() => goTo(metadata.page + 1)}
                    >
                      Next
                      <ChevronRight aria-hidden className="size-3.5" />
                    </Button>
                  </span>
                </nav>
              ) : null}
            </Panel>
          </div>
        );
      }}
    </RemoteBlock>
  );
}
