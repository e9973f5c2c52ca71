// Which language model a run uses (decisions 0009, 0013): the providers configured by environment (an
// OpenAI-compatible server, Anthropic), the operator's list of models (AGENT_MODELS, the first being the
// default), and an agent's own override ("openai:NAME", "anthropic:NAME" or a bare NAME for the default
// provider), which must be on that list.
import type { LanguageModel } from 'ai';
import type { Config } from '../config.ts';

export type ProviderName = 'openai' | 'anthropic';
type ModelConfig = Pick<
  Config,
  | 'OPENAI_BASE_URL'
  | 'OPENAI_API_KEY'
  | 'OPENAI_MODEL'
  | 'ANTHROPIC_API_KEY'
  | 'ANTHROPIC_BASE_URL'
  | 'ANTHROPIC_MODEL'
  | 'AGENT_MODELS'
>;

const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface ChosenModel {
  model: LanguageModel;
  /** "provider:model", as recorded on the run and shown to admins. */
  label: string;
  /** Anthropic requires a limit; for others the server's own default applies. */
  maxOutputTokens?: number;
}

/** A chat answer's ceiling with Anthropic (its API needs one; long enough for any answer worth posting). */
const ANTHROPIC_MAX_OUTPUT_TOKENS = 4_096;

/** A model was asked for but cannot be used; the run fails with this message. */
export class ModelChoiceError extends Error {
  override name = 'ModelChoiceError';
}

const isConfigured = (config: ModelConfig, provider: ProviderName) =>
  provider === 'openai'
    ? Boolean(config.OPENAI_BASE_URL || config.OPENAI_API_KEY)
    : Boolean(config.ANTHROPIC_API_KEY);

/** The provider agents use unless they name one: the OpenAI-compatible one first, then Anthropic. */
export function defaultProvider(config: ModelConfig): ProviderName | null {
  if (isConfigured(config, 'openai')) return 'openai';
  if (isConfigured(config, 'anthropic')) return 'anthropic';
  return null;
}

/** "provider:model" of the configured provider's own default model, or null when none is configured. */
function providerDefaultLabel(config: ModelConfig): string | null {
  const provider = defaultProvider(config);
  if (!provider) return null;
  return `${provider}:${provider === 'openai' ? config.OPENAI_MODEL : config.ANTHROPIC_MODEL}`;
}

/**
 * The models agents may use, as "provider:model": the operator's AGENT_MODELS, or else only the configured
 * provider's default model (none when no provider is configured).
 */
export function allowedModels(config: ModelConfig): string[] {
  if (config.AGENT_MODELS.length > 0) return config.AGENT_MODELS;
  const fallback = providerDefaultLabel(config);
  return fallback ? [fallback] : [];
}

/** "provider:model" of the workspace default (the first allowed model), or null when there is none. */
export function defaultModelLabel(config: ModelConfig): string | null {
  return allowedModels(config)[0] ?? null;
}

const ENV_HINT: Record<ProviderName, string> = {
  openai: 'OPENAI_BASE_URL or OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

function parseOverride(
  config: ModelConfig,
  override: string,
): { provider: ProviderName | null; modelId: string } {
  const match = /^(openai|anthropic):(.+)$/.exec(override.trim());
  if (match?.[1] && match[2]) return { provider: match[1] as ProviderName, modelId: match[2].trim() };
  return { provider: defaultProvider(config), modelId: override.trim() };
}

/** An override as "provider:model" (a bare name on the default provider); null with no provider at all. */
function overrideLabel(config: ModelConfig, override: string): string | null {
  const { provider, modelId } = parseOverride(config, override);
  return provider ? `${provider}:${modelId}` : null;
}

/** Whether an agent may name this model: it is on the operator's list (bare names on the default provider). */
export function isAllowedModel(config: ModelConfig, override: string): boolean {
  const label = overrideLabel(config, override);
  return label !== null && allowedModels(config).includes(label);
}

/** Why an admin may not give an agent this model, in a sentence; null when it is allowed. */
export function modelRefusal(config: ModelConfig, override: string): string | null {
  if (isAllowedModel(config, override)) return null;
  const allowed = allowedModels(config);
  if (allowed.length === 0)
    return 'No language model is configured on this server, so an agent cannot name one. Leave the model empty.';
  return `The model "${override.trim()}" is not offered on this server. Choose one of: ${allowed.join(', ')}.`;
}

/**
 * The model for an agent: its override when the operator's list still has it, else the default (the first
 * allowed model; an override taken off the list since it was saved is not used). Null when there is no
 * model at all (the run answers without one); throws ModelChoiceError when the model's provider is not set up.
 * The provider's SDK is loaded here, with the first run that needs it, not at the server's start.
 */
export async function chooseModel(config: ModelConfig, override: string | null): Promise<ChosenModel | null> {
  const wanted = override && isAllowedModel(config, override) ? override : defaultModelLabel(config);
  if (!wanted) return null;
  const { provider, modelId } = parseOverride(config, wanted);
  if (!provider)
    throw new ModelChoiceError(
      `This agent asks for the model "${wanted}", but no language model provider is configured on this server.`,
    );
  if (!isConfigured(config, provider))
    throw new ModelChoiceError(
      `This agent asks for the model "${wanted}", but the ${provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} provider is not configured on this server (${ENV_HINT[provider]}).`,
    );
  const label = `${provider}:${modelId}`;
  if (provider === 'openai') {
    const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
    const openai = createOpenAICompatible({
      name: 'openai',
      baseURL: config.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
      ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      // Token counts arrive in the stream's last chunk only when asked for (stream_options.include_usage).
      includeUsage: true,
    });
    return { model: openai.chatModel(modelId), label };
  }
  const { createAnthropic } = await import('@ai-sdk/anthropic');
  const anthropic = createAnthropic({
    apiKey: config.ANTHROPIC_API_KEY,
    ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
  });
  return { model: anthropic(modelId), label, maxOutputTokens: ANTHROPIC_MAX_OUTPUT_TOKENS };
}
