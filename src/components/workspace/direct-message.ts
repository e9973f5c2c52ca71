// Opening a conversation with a person: find or create the direct message, then go to it.
import type { NavigateFunction } from 'react-router';
import { notifyError } from '../../app/notify.ts';
import { startDirectMessage } from '../../data/channels.ts';

export async function openDirectMessage(
  navigate: NavigateFunction,
  institutionId: string,
  memberId: string,
): Promise<boolean> {
  try {
    const channel = await startDirectMessage(institutionId, memberId);
    await navigate(`/client/${institutionId}/channel/${channel.id}`);
    return true;
  } catch (err) {
    notifyError(err);
    return false;
  }
}
