// Message search (issue 4 item 5): results from the server's full-text search with the matched words
// highlighted; offline (or when the server cannot answer) the messages on this device are searched and
// the page says so.
import { HardDrive, Search, SearchX } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { MessageCard } from '../components/messages/message-card.tsx';
import { Button } from '../components/ui/button.tsx';
import { EmptyState, Spinner } from '../components/ui/states.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { useMessageSearch } from '../data/search.ts';

export function SearchScreen() {
  const [params] = useSearchParams();
  const query = params.get('q') ?? '';
  // A new search from the sidebar starts the page afresh with that query in its box.
  return <SearchPage key={query} query={query} />;
}

function SearchPage({ query }: { query: string }) {
  const { institution } = useWorkspace();
  const [, setParams] = useSearchParams();
  const [typed, setTyped] = useState(query);
  const search = useMessageSearch(institution.id, query);
  usePageTitle(query ? `Search: ${query}` : 'Search');

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Search" icon={<Search />} />
      <ScreenBody>
        <search>
          <form
            className="relative mb-4"
            onSubmit={(e) => {
              e.preventDefault();
              setParams(typed.trim() ? { q: typed.trim() } : {});
            }}
          >
            <Search className="pointer-events-none absolute top-2.5 left-3 size-4 text-faint" aria-hidden />
            <input
              type="search"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              aria-label="Search messages"
              placeholder="Search messages"
              className="h-10 w-full rounded-lg border border-line-strong bg-surface pr-3 pl-9 text-[14px] outline-none focus:border-accent focus:ring-2 focus:ring-ring"
            />
          </form>
        </search>
        {!query ? (
          <EmptyState icon={Search} title="Search this workspace">
            Find messages in the channels you are in. Words in "quotes" match together.
          </EmptyState>
        ) : search.error ? (
          <p role="alert" className="text-[13px] text-danger">
            {search.error}
          </p>
        ) : (
          <>
            <div className="mb-2 flex items-center gap-2 text-[12px] text-muted" aria-live="polite">
              {search.loading && search.results.length === 0 ? null : (
                <span>
                  {search.total} {search.total === 1 ? 'result' : 'results'} for “{query}”
                </span>
              )}
              {search.source === 'device' ? (
                <span
                  role="status"
                  className="ml-auto inline-flex items-center gap-1 rounded-full bg-accent-soft px-2 py-0.5 font-medium text-accent-fg"
                >
                  <HardDrive className="size-3" aria-hidden />
                  Results from this device
                </span>
              ) : null}
            </div>
            {search.loading && search.results.length === 0 ? (
              <Spinner label="Searching" />
            ) : search.results.length === 0 ? (
              <EmptyState icon={SearchX} title="No messages found">
                {search.source === 'device'
                  ? 'Only messages already on this device can be searched while offline.'
                  : 'Try other words, or fewer of them.'}
              </EmptyState>
            ) : (
              <ul className="space-y-2" aria-label="Search results">
                {search.results.map((hit) => (
                  <li key={hit.message.genId}>
                    <MessageCard message={hit.message} highlight={hit.highlight} />
                  </li>
                ))}
              </ul>
            )}
            {search.hasMore ? (
              <div className="mt-3 flex justify-center">
                <Button variant="outline" size="sm" loading={search.loading} onClick={search.loadMore}>
                  Show more
                </Button>
              </div>
            ) : null}
          </>
        )}
      </ScreenBody>
    </div>
  );
}
