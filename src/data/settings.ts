// The device's settings (spec §3): defaults until the stored row loads.

import { SETTINGS_DEFAULTS, type SettingsDoc } from '../../schemas/collections.ts';
import { requireClient } from './client.ts';
import { useStoreRead } from './store-reads.ts';

/** Spec §3 settings; defaults until the stored row loads (never undefined). */
export function useSettings(): SettingsDoc {
  return useStoredSettings() ?? SETTINGS_DEFAULTS;
}

/** The settings once the store has answered (over the defaults where no row is stored); undefined before. */
export function useStoredSettings(): SettingsDoc | undefined {
  return useStoreRead('settings', {});
}

export async function updateSettings(patch: Partial<Omit<SettingsDoc, 'id'>>): Promise<void> {
  const { db } = await requireClient();
  const current = await db.settings.findOne('settings').exec();
  await db.settings.upsert({
    ...SETTINGS_DEFAULTS,
    ...(current?.toJSON() as Partial<SettingsDoc>),
    ...patch,
    id: 'settings',
  });
}
