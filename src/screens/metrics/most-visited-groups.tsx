// /metrics/most-visited-groups: the groups people open most, by distinct visitors and visits.
import { useWorkspace } from '../../app/workspace-context.ts';
import { useMostVisitedGroups } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { useMetricsRange } from './metrics-range.ts';
import { RemoteBlock } from './panel.tsx';
import { VisitedList } from './visited-list.tsx';

export function MostVisitedGroupsScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const state = useMostVisitedGroups(institution.id, window);
  return (
    <RemoteBlock state={state} onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}>
      {(answer) => (
        <VisitedList
          rows={answer.data}
          noun="group"
          file="most-visited-groups"
          preset={preset}
          emptyHint="Opening a group on the Groups page counts as a visit, at most once per person every 30 minutes."
        />
      )}
    </RemoteBlock>
  );
}
