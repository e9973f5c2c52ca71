// Workspace settings (issue 15 item 8, decision 0054): the workspace's name, its pending invitations, its
// default channels and whether links show previews (decision 0053), for owners and admins (spec §5–§6). Others never see the way in; opening the
// address anyway says plainly who may, as the metrics screen does. The server checks every call too.
import { Building2, Lock } from 'lucide-react';
import { isWorkspaceAdminRole } from '../../schemas/permissions.ts';
import type { WorkspaceRole } from '../../schemas/protocol/index.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { EmptyState } from '../components/ui/states.tsx';
import { LinkPreviewSetting } from '../components/workspace/link-preview-setting.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { DefaultChannelsSection } from '../components/workspace-settings/default-channels-section.tsx';
import { PendingInvitationsSection } from '../components/workspace-settings/pending-invitations-section.tsx';
import { WorkspaceIdentitySection } from '../components/workspace-settings/workspace-identity-section.tsx';

export function WorkspaceSettingsScreen() {
  usePageTitle('Workspace settings');
  const { institution, me } = useWorkspace();

  if (!isWorkspaceAdminRole(me.role as WorkspaceRole)) {
    return (
      <div className="flex min-h-0 flex-1 flex-col">
        <ScreenHeader title="Workspace settings" icon={<Building2 />} />
        <EmptyState icon={Lock} title="Only workspace admins can change these settings.">
          Ask an owner or admin of {institution.name} if something here needs changing.
        </EmptyState>
      </div>
    );
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Workspace settings" icon={<Building2 />} subtitle={institution.name} />
      <ScreenBody>
        <div className="flex max-w-2xl flex-col gap-8">
          <WorkspaceIdentitySection institution={institution} />
          <PendingInvitationsSection />
          <DefaultChannelsSection />
          <LinkPreviewSetting institutionId={institution.id} />
        </div>
      </ScreenBody>
    </div>
  );
}
