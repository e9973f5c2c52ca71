// How an agent's settings read in lists and summaries.
import type { Agent, AgentInvokableBy } from '../../../schemas/protocol/index.ts';
import type { ChipTone } from './status-chip.tsx';

export const INVOKE_LABELS: Record<AgentInvokableBy, { label: string; tone: ChipTone }> = {
  everyone: { label: 'Everyone can ask', tone: 'good' },
  channel_owners: { label: 'Channel owners', tone: 'accent' },
  nobody: { label: 'Paused', tone: 'neutral' },
};

/** The models the server offers agents (AGENT_MODELS), its default first; null default: none configured. */
export interface ModelChoices {
  defaultModel: string | null;
  models: string[];
}

/**
 * The offered model an agent's setting names ("provider:model"; a bare name is on the default's
 * provider), or null when it names none or one the server no longer offers (it then answers with the default).
 */
export function offeredModel(model: string | null, choices: ModelChoices): string | null {
  if (!model) return null;
  if (choices.models.includes(model)) return model;
  const provider = choices.defaultModel?.split(':')[0];
  const qualified = provider && !model.includes(':') ? `${provider}:${model}` : null;
  return qualified && choices.models.includes(qualified) ? qualified : null;
}

/** What model an agent answers with, as one line. */
export function modelLine(agent: Agent, choices: ModelChoices): string {
  return offeredModel(agent.model, choices) ?? choices.defaultModel ?? 'Knowledge only (no model configured)';
}
