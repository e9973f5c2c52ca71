// The device's settings (spec §3): defaults until the stored row loads.

import { map } from 'rxjs';
import { SETTINGS_DEFAULTS, type SettingsDoc } from '../../schemas/collections.ts';
import { requireClient } from './client.ts';
import { useObservable } from './live-query.ts';

/** Spec §3 settings; defaults until the stored row loads (never undefined). */
export function useSettings(): SettingsDoc {
  const stored = useObservable(
    (c) =>
      c.db.settings
        .findOne('settings')
        .$.pipe(map((d) => ({ ...SETTINGS_DEFAULTS, ...(d ? (d.toJSON() as Partial<SettingsDoc>) : {}) }))),
    [],
  );
  return stored ?? SETTINGS_DEFAULTS;
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
