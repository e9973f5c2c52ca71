// Client layout for /client/:clientId: sidebar + content on desktop; on phones the sidebar is the
// workspace home and every other page has a back button to it (spec §9 breakpoint 768 px).
import { type ReactNode, useEffect, useMemo } from 'react';
import { Outlet, useLocation, useMatch, useParams } from 'react-router';
import type { InstitutionWithMember } from '../../schemas/protocol/index.ts';
import { RequestOutcomeToasts } from '../components/channels/request-to-join.tsx';
import { NoticeToasts } from '../components/messages/notice-toasts.tsx';
import { SplitLayout } from '../components/ui/splitter.tsx';
import { Spinner } from '../components/ui/states.tsx';
import { ConnectionBanner } from '../components/workspace/connection-status.tsx';
import { KeyboardShortcuts } from '../components/workspace/keyboard-shortcuts.tsx';
import { Sidebar } from '../components/workspace/sidebar.tsx';
import { useMembers } from '../data/members.ts';
import { selectInstitution, useInstitutions } from '../data/workspaces.ts';
import { useAppBadge } from './app-badge.ts';
import { notFound, ROUTE_ID } from './http-status-error.ts';
import { useIsDesktop } from './media.ts';
import { type Workspace, WorkspaceContext } from './workspace-context.ts';
import { useWorkspaceMissingSettled } from './workspace-list-refresh.ts';
import { useWorkspaceMembers } from './workspace-members.ts';

export function ClientLayout() {
  const { clientId = '' } = useParams();
  const location = useLocation();

  const institutions = useInstitutions();
  const isDesktop = useIsDesktop();
  const atHome = useMatch('/client/:clientId') !== null;
  useAppBadge();
  const institution = institutions?.find((i) => i.id === clientId);
  const missingSettled = useWorkspaceMissingSettled(institution === undefined ? clientId : null);
  const institutionId = institution?.id;
  useEffect(() => {
    if (institutionId) void selectInstitution(institutionId).catch(() => {});
  }, [institutionId]);

  if (!ROUTE_ID.test(clientId)) throw notFound(location.pathname);
  if (!institution) {
    if (institutions === undefined || !missingSettled) return <Spinner className="h-full" />;
    throw notFound(location.pathname);
  }

  return (
    <WorkspaceProvider institution={institution}>
      <RequestOutcomeToasts institutionId={institution.id} />
      <NoticeToasts institutionId={institution.id} />
      <KeyboardShortcuts />
      {isDesktop ? (
        <SplitLayout
          className="h-full bg-app"
          panel={<Sidebar className="min-h-0 flex-1" />}
          panelId="workspace-sidebar"
          label="Resize sidebar"
          storageKey="lantern:layout:sidebar"
          defaultSize={20}
          bounds={{ min: 15, max: 40 }}
          minPx={208}
          maxPx={520}
          contentAs="main"
          contentClassName="p-2 pl-0"
        >
          {/* Positioned: a visually hidden element without a nearer positioned box stays inside this clipped
              pane instead of lengthening the document, which then scrolled on a click (settings.spec). */}
          <div className="relative flex min-h-0 flex-1 flex-col overflow-hidden rounded-lg border border-line bg-surface shadow-xs">
            <ConnectionBanner />
            <Outlet />
          </div>
        </SplitLayout>
      ) : (
        // The page's main landmark on a phone too (axe's landmark-one-main): at home the sidebar is the page.
        <main className="flex h-full min-h-0 flex-col bg-surface">
          <ConnectionBanner />
          {atHome ? <Sidebar className="min-h-0 flex-1" /> : <Outlet />}
        </main>
      )}
    </WorkspaceProvider>
  );
}

/**
 * The workspace context, with its member list read here rather than in the layout: a member list that
 * changes only in someone's presence then re-renders this provider alone (its children are the layout's
 * same elements, and the context keeps its value), not the sidebar and the open screen.
 */
function WorkspaceProvider({
  institution,
  children,
}: {
  institution: InstitutionWithMember;
  children: ReactNode;
}) {
  const membersById = useWorkspaceMembers(useMembers(institution.id));
  const workspace = useMemo<Workspace>(
    () => ({ institution, me: institution.member, membersById }),
    [institution, membersById],
  );
  return <WorkspaceContext.Provider value={workspace}>{children}</WorkspaceContext.Provider>;
}
