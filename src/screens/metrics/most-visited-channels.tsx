// /metrics/most-visited-channels: where people go most, by distinct visitors and visits.
import { useWorkspace } from '../../app/workspace-context.ts';
import { useMostVisitedChannels } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { useMetricsRange } from './metrics-range.ts';
import { RemoteBlock } from './panel.tsx';
import { VisitedList } from './visited-list.tsx';

export function MostVisitedChannelsScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const state = useMostVisitedChannels(institution.id, window);
  return (
    <RemoteBlock state={state} onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}>
      {(answer) => (
        <VisitedList
          rows={answer.data}
          noun="channel"
          file="most-visited-channels"
          preset={preset}
          emptyHint="Opening a channel counts as a visit, at most once per person every 30 minutes."
        />
      )}
    </RemoteBlock>
  );
}
