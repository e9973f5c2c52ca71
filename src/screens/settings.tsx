// Settings: the locally persisted settings of spec §3, kept on this device.
import { Settings } from 'lucide-react';
import type { SettingsDoc } from '../../schemas/collections.ts';
import { notifyError } from '../app/notify.ts';
import { usePageTitle } from '../app/title.ts';
import { SwitchRow } from '../components/ui/switch.tsx';
import { ScreenBody, ScreenHeader } from '../components/workspace/screen-header.tsx';
import { updateSettings } from '../data/actions.ts';
import { useSettings } from '../data/hooks.ts';

type Toggle = keyof Pick<
  SettingsDoc,
  | 'showChannels'
  | 'showDMs'
  | 'showAuthorAvatarInMessages'
  | 'showImagesInChannel'
  | 'showAdvancedKeyboard'
  | 'showIosAddToScreenTutorial'
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
        description: 'Display shared images inline instead of as links.',
      },
      {
        key: 'showAdvancedKeyboard',
        label: 'Advanced formatting toolbar',
        description: 'Show formatting controls above the composer.',
      },
    ],
  },
  {
    title: 'Device',
    items: [
      {
        key: 'showIosAddToScreenTutorial',
        label: 'Home screen tip on iPhone and iPad',
        description: 'Explain how to add Lantern to the home screen.',
      },
    ],
  },
];

export function SettingsScreen() {
  usePageTitle('Settings');
  const settings = useSettings();
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <ScreenHeader title="Settings" icon={<Settings />} subtitle="Saved on this device" />
      <ScreenBody>
        <div className="flex max-w-xl flex-col gap-6">
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
        </div>
      </ScreenBody>
    </div>
  );
}
