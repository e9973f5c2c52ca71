// Settings: the workspace's settings pages (Agents, and Workspace settings for admins), then the locally
// persisted settings of spec §3, kept on this device.
import { Bot, ChevronRight, Settings, SlidersHorizontal } from 'lucide-react';
import { Link } from 'react-router';
import type { SettingsDoc } from '../../schemas/collections.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { useWorkspace } from '../app/workspace-context.ts';
import { DevicesSection } from '../components/settings/devices-section.tsx';
import { HandOverSection } from '../components/settings/hand-over-section.tsx';
import { LtiPlatformsSection } from '../components/settings/lti-platforms-section.tsx';
import { NotificationsSection } from '../components/settings/notifications-section.tsx';
import { SigninMethodsSection } from '../components/settings/signin-methods-section.tsx';
import { ThemeSection } from '../components/settings/theme-section.tsx';
import { SwitchRow } from '../components/ui/switch.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { updateSettings, useSettings } from '../data/settings.ts';
import { useWorkspacePermissions } from '../data/workspaces.ts';

type Toggle = keyof Pick<
  SettingsDoc,
  | 'showChannels'
  | 'showDMs'
  | 'showAuthorAvatarInMessages'
  | 'showImagesInChannel'
  | 'showAdvancedKeyboard'
  | 'showIosAddToScreenTutorial'
  | 'playNotificationSound'
>;

const GROUPS: { title: string; items: { key: Toggle; label: string; description: string }[] }[] = [
  {
    title: 'Sidebar',
    items: [
      { key: 'showChannels', label: 'Show channels', description: 'List your channels in the sidebar.' },
      {
        key: 'showDMs',
        label: 'Show direct messages',
        description: 'List your conversations in the sidebar.',
      },
    ],
  },
  {
    title: 'Messages',
    items: [
      {
        key: 'showAuthorAvatarInMessages',
        label: 'Show avatars in messages',
        description: 'A picture or initials beside each author.',
      },
      {
        key: 'showImagesInChannel',
        label: 'Show images in channels',
        description:
          'Show pictures in messages. Off, they are files to open, and none is downloaded until you do.',
      },
      {
        // It swaps the keys (the formatting toolbar shows either way): named for what it does.
        key: 'showAdvancedKeyboard',
        label: 'Enter adds a new line',
        description: 'Send with Shift + Enter instead, for writing longer messages.',
      },
    ],
  },
  {
    title: 'Device',
    items: [
      {
        key: 'playNotificationSound',
        label: 'Sound for new messages',
        description: 'Play a short chime when a notification arrives.',
      },
      {
        key: 'showIosAddToScreenTutorial',
        label: 'Home screen tip on iPhone and iPad',
        description: 'The next time Lantern opens in the browser, explain how to add it to the home screen.',
      },
    ],
  },
];

export function SettingsScreen() {
  usePageTitle('Settings');
  const settings = useSettings();
  const { institution } = useWorkspace();
  const access = useWorkspacePermissions(institution.id);
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Settings" icon={<Settings />} subtitle={institution.name} />
      <ScreenBody>
        <div className="flex max-w-xl flex-col gap-6">
          <section aria-label="Workspace">
            <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Workspace</h2>
            <div className="rounded-lg border border-line bg-surface">
              <Link
                to={`/client/${institution.id}/settings/agents`}
                className="flex items-center gap-3 rounded-lg px-4 py-3 outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-fg">
                  <Bot className="size-4" aria-hidden />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block text-sm font-medium">Agents</span>
                  <span className="block text-[13px] text-muted">
                    {access?.canManageMembers
                      ? 'Create AI agents, give them knowledge and tools, see their usage.'
                      : 'The AI agents of this workspace and what they know.'}
                  </span>
                </span>
                <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />
              </Link>
              {/* Owners and admins only (spec §5–§6), as in the workspace menu (decision 0054). */}
              {access?.canManageMembers ? (
                <Link
                  to={`/client/${institution.id}/settings/workspace`}
                  className="flex items-center gap-3 rounded-b-lg border-t border-line px-4 py-3 outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent-soft text-accent-fg">
                    <SlidersHorizontal className="size-4" aria-hidden />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block text-sm font-medium">Workspace settings</span>
                    <span className="block text-[13px] text-muted">
                      Rename the workspace, follow up on invitations, choose the channels everyone is in.
                    </span>
                  </span>
                  <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />
                </Link>
              ) : null}
            </div>
          </section>
          <HandOverSection />
          {access?.canManageMembers ? <LtiPlatformsSection institutionId={institution.id} /> : null}
          <NotificationsSection />
          <DevicesSection />
          <SigninMethodsSection />
          <p className="-mb-3 text-[13px] text-muted">These are saved on this device.</p>
          <ThemeSection />
          {GROUPS.map((group) => (
            <section key={group.title} aria-label={group.title}>
              <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">{group.title}</h2>
              <div className="divide-y divide-line rounded-lg border border-line bg-surface px-4">
                {group.items.map((item) => (
                  <SwitchRow
                    key={item.key}
                    label={item.label}
                    description={item.description}
                    checked={settings[item.key]}
                    onCheckedChange={(checked) =>
                      void updateSettings({ [item.key]: checked }).catch(notifyError)
                    }
                  />
                ))}
              </div>
            </section>
          ))}
          <section aria-label="Account">
            <h2 className="mb-1 text-xs font-semibold tracking-wide text-muted uppercase">Account</h2>
            <div className="rounded-lg border border-line bg-surface">
              <Link
                to="/account-deletion"
                className="flex items-center gap-3 rounded-lg px-4 py-3 text-danger outline-none hover:bg-hover focus-visible:ring-2 focus-visible:ring-ring"
              >
                <span className="min-w-0 flex-1 text-sm font-medium">Delete account</span>
                <ChevronRight className="size-4 shrink-0" aria-hidden />
              </Link>
            </div>
          </section>
        </div>
      </ScreenBody>
    </div>
  );
}
