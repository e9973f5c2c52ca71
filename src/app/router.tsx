// The route table of spec §2 with its layouts: auth (signed-out only), client and default (signed-in
// only), unauthenticated (open to all), and the error layout for 404 / 500. The workspace shell and the
// channel view are in the first script; every other screen is its own chunk, fetched when its route is
// first visited (and precached by the service worker, so it opens offline too). Sign-in too: a first
// visit to /signin is served signin.html with its own script (decision 0036), so the app's sign-in screen
// is only reached from within the app, once signed out (decision 0067).
// Declarative routes (useRoutes under a BrowserRouter), not a data router: no route has a loader or an
// action, and createBrowserRouter alone was 14 kB of the first scripts (decision 0067).
import { type ComponentType, lazy, Suspense } from 'react';
import { Navigate, Outlet, type RouteObject, useRoutes } from 'react-router';
import { ChannelScreen } from '../screens/channel.tsx';
import { EntryScreen, ShortPathRedirect } from '../screens/entry.tsx';
import { ClientLayout } from './client-layout.tsx';
import { RouteErrors } from './error-screen.tsx';
import { RequireSession } from './guards.tsx';
import { loadChunk } from './reload-guard.ts';
import { RootLayout } from './root-layout.tsx';

/** A route whose screen is loaded on first visit: `pick` names the export the route renders. */
function onDemand<M>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType,
): Pick<RouteObject, 'element'> {
  // A chunk that fails to load reloads the page once (spec §9 reload guard), then shows the error screen.
  const Screen = lazy(async () => ({ default: pick(await loadChunk(load)) }));
  return { element: <Screen /> };
}

function SignedIn() {
  return (
    <RequireSession>
      <Outlet />
    </RequireSession>
  );
}

const metrics = () => import('../screens/metrics/index.ts');
const agentsSettings = () => import('../screens/agents-settings.tsx');
const agentSettings = () => import('../screens/agent-settings.tsx');

export const routes: RouteObject[] = [
  {
    element: (
      <RouteErrors>
        <RootLayout />
      </RouteErrors>
    ),
    children: [
      {
        // Below the root layout, so an error page keeps its toasts, banner and service-worker messages.
        element: (
          <RouteErrors>
            <Outlet />
          </RouteErrors>
        ),
        children: [
          {
            ...onDemand(
              () => import('./auth-layout.tsx'),
              (m) => m.AuthLayout,
            ),
            children: [
              {
                path: 'signin',
                ...onDemand(
                  () => import('../screens/sign-in.tsx'),
                  (m) => m.SignInScreen,
                ),
              },
            ],
          },
          {
            path: 'lti/launch',
            ...onDemand(
              () => import('../screens/lti-launch.tsx'),
              (m) => m.LtiLaunchScreen,
            ),
          },
          {
            path: 'account-deletion',
            ...onDemand(
              () => import('../screens/account-deletion.tsx'),
              (m) => m.AccountDeletionScreen,
            ),
          },
          {
            element: <SignedIn />,
            children: [
              { index: true, element: <EntryScreen /> },
              {
                path: 'join',
                ...onDemand(
                  () => import('../screens/join.tsx'),
                  (m) => m.JoinScreen,
                ),
              },
              { path: 'client/directory', element: <ShortPathRedirect page="directory" /> },
              { path: 'client/profile', element: <ShortPathRedirect page="profile" /> },
              { path: 'client/drafts', element: <ShortPathRedirect page="drafts" /> },
              {
                path: 'client/:clientId',
                element: <ClientLayout />,
                children: [
                  {
                    index: true,
                    ...onDemand(
                      () => import('../screens/workspace-home.tsx'),
                      (m) => m.WorkspaceHomeScreen,
                    ),
                  },
                  { path: 'channel/:channelId', element: <ChannelScreen /> },
                  {
                    path: 'directory',
                    ...onDemand(
                      () => import('../screens/directory.tsx'),
                      (m) => m.DirectoryScreen,
                    ),
                  },
                  {
                    path: 'directory/:memberId',
                    ...onDemand(
                      () => import('../screens/member-profile.tsx'),
                      (m) => m.MemberProfileScreen,
                    ),
                  },
                  {
                    path: 'groups',
                    ...onDemand(
                      () => import('../screens/groups.tsx'),
                      (m) => m.GroupsScreen,
                    ),
                  },
                  {
                    path: 'drafts',
                    ...onDemand(
                      () => import('../screens/drafts.tsx'),
                      (m) => m.DraftsScreen,
                    ),
                  },
                  {
                    path: 'activity',
                    ...onDemand(
                      () => import('../screens/activity.tsx'),
                      (m) => m.ActivityScreen,
                    ),
                  },
                  {
                    path: 'search',
                    ...onDemand(
                      () => import('../screens/search.tsx'),
                      (m) => m.SearchScreen,
                    ),
                  },
                  {
                    path: 'profile',
                    ...onDemand(
                      () => import('../screens/profile.tsx'),
                      (m) => m.ProfileScreen,
                    ),
                  },
                  {
                    path: 'settings',
                    ...onDemand(
                      () => import('../screens/settings.tsx'),
                      (m) => m.SettingsScreen,
                    ),
                  },
                  {
                    path: 'settings/workspace',
                    ...onDemand(
                      () => import('../screens/workspace-settings.tsx'),
                      (m) => m.WorkspaceSettingsScreen,
                    ),
                  },
                  { path: 'settings/agents', ...onDemand(agentsSettings, (m) => m.AgentsSettingsScreen) },
                  { path: 'settings/agents/new', ...onDemand(agentSettings, (m) => m.NewAgentScreen) },
                  {
                    path: 'settings/agents/:agentId',
                    ...onDemand(agentSettings, (m) => m.AgentSettingsScreen),
                  },
                  {
                    // One chunk for the frame and its pages; an unknown page under it goes to / (spec §2).
                    path: 'metrics',
                    ...onDemand(metrics, (m) => m.MetricsLayout),
                    children: [
                      { index: true, ...onDemand(metrics, (m) => m.MetricsOverview) },
                      { path: 'engaging-messages', ...onDemand(metrics, (m) => m.EngagingMessagesScreen) },
                      { path: 'growing-channels', ...onDemand(metrics, (m) => m.GrowingChannelsScreen) },
                      { path: 'latest-channels', ...onDemand(metrics, (m) => m.LatestChannelsScreen) },
                      {
                        path: 'most-visited-channels',
                        ...onDemand(metrics, (m) => m.MostVisitedChannelsScreen),
                      },
                      { path: 'most-visited-groups', ...onDemand(metrics, (m) => m.MostVisitedGroupsScreen) },
                      {
                        path: 'most-visited-members',
                        ...onDemand(metrics, (m) => m.MostVisitedMembersScreen),
                      },
                    ],
                  },
                ],
              },
            ],
          },
          // Spec §2: an unknown route goes to /.
          { path: '*', element: <Navigate to="/" replace /> },
        ],
      },
    ],
  },
];

/**
 * The routes for the current address. A screen still loading keeps the one before it on screen (the
 * router moves between addresses in a transition); on the first load the page stays empty until it comes.
 */
export function AppRoutes() {
  return <Suspense fallback={null}>{useRoutes(routes)}</Suspense>;
}
