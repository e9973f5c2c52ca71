// Sidebar sections: each member arranges their own sidebar.
import { z } from 'zod';
import { genId, id } from './primitives.ts';

// ───────────────────────────── REST: sections (each member arranges their own sidebar) ─────────────────────────────
export const SECTION_NAME_MAX = 40;
export const SECTIONS_MAX = 50;
export const section = z.object({
  id,
  name: z.string(),
  /** Channel ids in display order. The default section also shows every joined channel in no section. */
  channels: z.array(id),
  position: z.number().int().nonnegative(),
  isDefault: z.boolean(),
});
export type Section = z.infer<typeof section>;
export const sectionsResponse = z.object({ data: z.array(section) });
/** Every section call answers with the caller's whole layout (a move changes two sections); POST adds the new one. */
export const sectionCreatedResponse = sectionsResponse.extend({ section });
const sectionName = z.string().trim().min(1, 'Name cannot be empty').max(SECTION_NAME_MAX);
const sectionChannels = z.array(id).max(1000);
/** `id` lets an offline client create a section under its own id and replay the call without a duplicate. */
export const createSectionBody = z.object({
  id: genId.optional(),
  name: sectionName,
  channels: sectionChannels.optional(),
});
export type CreateSectionBody = z.infer<typeof createSectionBody>;
export const updateSectionBody = z
  .object({ name: sectionName.optional(), channels: sectionChannels.optional() })
  .refine((b) => b.name !== undefined || b.channels !== undefined, 'Nothing to update');
export type UpdateSectionBody = z.infer<typeof updateSectionBody>;
/** Bulk replace of the caller's layout (an offline client replays its last known arrangement). */
export const replaceSectionsBody = z.object({
  sections: z.array(z.object({ id, channels: sectionChannels })).max(SECTIONS_MAX),
});
export type ReplaceSectionsBody = z.infer<typeof replaceSectionsBody>;
export const reorderSectionsBody = z.object({ sectionIds: z.array(id).min(1).max(SECTIONS_MAX) });
export type ReorderSectionsBody = z.infer<typeof reorderSectionsBody>;
