// Visits, recorded for metrics.
import { z } from 'zod';
import { channelRef } from './channels.ts';
import { id } from './primitives.ts';

/** Visits are recorded for metrics (most-visited members, channels and groups). */
export const visitMemberPayload = z.object({ institutionId: id, memberId: id });
export const visitChannelPayload = channelRef;
export const visitGroupPayload = z.object({ institutionId: id, groupId: id });
