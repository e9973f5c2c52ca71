// /metrics/most-visited-members: the profiles people open most — unless the workspace turned member-level
// metrics off, which this page then explains, with the switch to turn them back on. Rows with fewer than
// the server's minimum of distinct visitors are left out by the server, and the page says so.
import { EyeOff } from 'lucide-react';
import { useState } from 'react';
import { notifyError } from '../../app/notify.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { SwitchRow } from '../../components/ui/switch.tsx';
import { setMemberMetricsEnabled, useMetricSettings, useMostVisitedMembers } from '../../data/metrics.ts';
import { invalidateRemote } from '../../data/remote-query.ts';
import { useMetricsRange } from './metrics-range.ts';
import { Panel, RemoteBlock } from './panel.tsx';
import { VisitedList } from './visited-list.tsx';

export function MostVisitedMembersScreen() {
  const { institution } = useWorkspace();
  const { window, preset } = useMetricsRange();
  const state = useMostVisitedMembers(institution.id, window);
  return (
    <>
      <RemoteBlock state={state} onRetry={() => void invalidateRemote(`metrics:${institution.id}:`)}>
        {(answer) =>
          answer.memberMetricsEnabled ? (
            <>
              <VisitedList
                rows={answer.data}
                noun="member"
                file="most-visited-members"
                preset={preset}
                emptyHint={`Only profiles opened by at least ${answer.minimumVisitors} different people are listed, so no one can be singled out.`}
              />
              {answer.data.length > 0 ? (
                <p className="text-xs text-muted">
                  Profiles opened by fewer than {answer.minimumVisitors} different people are not listed.
                </p>
              ) : null}
            </>
          ) : (
            <div className="flex flex-col items-center gap-2 rounded-xl border border-line bg-surface px-6 py-12 text-center shadow-xs">
              <div className="mb-1 flex size-11 items-center justify-center rounded-xl border border-line bg-surface-2 text-muted">
                <EyeOff className="size-5" aria-hidden />
              </div>
              <h3 className="text-[15px] font-semibold">Member-level metrics are off</h3>
              <p className="max-w-md text-[13px] text-muted">
                This workspace has chosen not to show whose profiles people open. Channel and group figures
                are still available; turn member-level metrics on below to see this page.
              </p>
            </div>
          )
        }
      </RemoteBlock>
      <MemberMetricsSetting institutionId={institution.id} />
    </>
  );
}

function MemberMetricsSetting({ institutionId }: { institutionId: string }) {
  const settings = useMetricSettings(institutionId);
  const [saving, setSaving] = useState(false);
  const enabled = settings.data?.memberMetricsEnabled;
  if (enabled === undefined) return null;
  return (
    <Panel title="Privacy">
      <SwitchRow
        label="Member-level metrics"
        description="Shows owners and admins which people's profiles are opened most, counted once per person every 30 minutes. Turn it off if your team would rather not be ranked."
        checked={enabled}
        disabled={saving}
        onCheckedChange={(next) => {
          setSaving(true);
          setMemberMetricsEnabled(institutionId, next)
            .catch(notifyError)
            .finally(() => setSaving(false));
        }}
      />
    </Panel>
  );
}
