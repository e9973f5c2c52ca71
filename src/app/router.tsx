// The route table of spec §2 with its layouts: auth (signed-out only), client and default (signed-in
// only), unauthenticated (open to all), and the error layout for 404 / 500.
import { createBrowserRouter, Navigate, Outlet, type RouteObject } from 'react-router';
import { ActivityScreen } from '../screens/activity.tsx';
import { AgentSettingsScreen, NewAgentScreen } from '../screens/agent-settings.tsx';
import { AgentsSettingsScreen } from '../screens/agents-settings.tsx';
import { ChannelScreen } from '../screens/channel.tsx';
import { DirectoryScreen } from '../screens/directory.tsx';
import { DraftsScreen } from '../screens/drafts.tsx';
import { EntryScreen, ShortPathRedirect } from '../screens/entry.tsx';
import { GroupsScreen } from '../screens/groups.tsx';
import { JoinScreen } from '../screens/join.tsx';
import { MemberProfileScreen } from '../screens/member-profile.tsx';
import { AccountDeletionScreen, LtiLaunchScreen, MetricsScreen } from '../screens/not-available.tsx';
import { ProfileScreen } from '../screens/profile.tsx';
import { SearchScreen } from '../screens/search.tsx';
import { SettingsScreen } from '../screens/settings.tsx';
import { SignInScreen } from '../screens/sign-in.tsx';
import { WorkspaceHomeScreen } from '../screens/workspace-home.tsx';
import { AuthLayout } from './auth-layout.tsx';
import { ClientLayout } from './client-layout.tsx';
import { RouteErrorScreen } from './error-screen.tsx';
import { RequireSession } from './guards.tsx';
import { RootLayout } from './root-layout.tsx';

function SignedIn() {
  return (
    <RequireSession>
      <Outlet />
    </RequireSession>
  );
}

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorScreen />,
    children: [
      {
        errorElement: <RouteErrorScreen />,
        children: [
          { element: <AuthLayout />, children: [{ path: 'signin', element: <SignInScreen /> }] },
          { path: 'lti/launch', element: <LtiLaunchScreen /> },
          { path: 'account-deletion', element: <AccountDeletionScreen /> },
          {
            element: <SignedIn />,
            children: [
              { index: true, element: <EntryScreen /> },
              { path: 'join', element: <JoinScreen /> },
              { path: 'client/directory', element: <ShortPathRedirect page="directory" /> },
              { path: 'client/profile', element: <ShortPathRedirect page="profile" /> },
              { path: 'client/drafts', element: <ShortPathRedirect page="drafts" /> },
              {
                path: 'client/:clientId',
                element: <ClientLayout />,
                children: [
                  { index: true, element: <WorkspaceHomeScreen /> },
                  { path: 'channel/:channelId', element: <ChannelScreen /> },
                  { path: 'directory', element: <DirectoryScreen /> },
                  { path: 'directory/:memberId', element: <MemberProfileScreen /> },
                  { path: 'groups', element: <GroupsScreen /> },
                  { path: 'drafts', element: <DraftsScreen /> },
                  { path: 'activity', element: <ActivityScreen /> },
                  { path: 'search', element: <SearchScreen /> },
                  { path: 'profile', element: <ProfileScreen /> },
                  { path: 'settings', element: <SettingsScreen /> },
                  { path: 'settings/agents', element: <AgentsSettingsScreen /> },
                  { path: 'settings/agents/new', element: <NewAgentScreen /> },
                  { path: 'settings/agents/:agentId', element: <AgentSettingsScreen /> },
                  { path: 'metrics/*', element: <MetricsScreen /> },
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

export function createRouter() {
  return createBrowserRouter(routes);
}
