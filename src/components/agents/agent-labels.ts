// How an agent's settings read in lists and summaries.
import type { Agent, AgentInvokableBy } from '../../../schemas/protocol.ts';
import type { ChipTone } from './status-chip.tsx';

export const INVOKE_LABELS: Record<AgentInvokableBy, { label: string; tone: ChipTone }> = {
  everyone: { label: 'Everyone can ask', tone: 'good' },
  channel_owners: { label: 'Channel owners', tone: 'accent' },
  nobody: { label: 'Paused', tone: 'neutral' },
};

/** What model an agent answers with, as one line. */
export function modelLine(agent: Agent, defaultModel: string | null): string {
  if (agent.model) return agent.model;
  return defaultModel ?? 'Knowledge only (no model configured)';
}
