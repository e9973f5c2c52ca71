// Which language model a run uses (decision 0009): the providers configured by environment (an
// OpenAI-compatible server, Anthropic), the workspace default, and an agent's own override
// ("openai:NAME", "anthropic:NAME" or a bare NAME for the default provider).
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
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

/** "provider:model" of the workspace default, or null when no provider is configured. */
export function defaultModelLabel(config: ModelConfig): string | null {
  const provider = defaultProvider(config);
  if (!provider) return null;
  return `${provider}:${provider === 'openai' ? config.OPENAI_MODEL : config.ANTHROPIC_MODEL}`;
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

/**
 * The model for an agent: its override or the default. Null when nothing is configured and the agent names
 * no model (the run answers without one); throws ModelChoiceError when it names a provider that is not set up.
 */
export function chooseModel(config: ModelConfig, override: string | null): ChosenModel | null {
  let provider: ProviderName | null;
  let modelId: string;
  if (override) {
    ({ provider, modelId } = parseOverride(config, override));
    if (!provider)
      throw new ModelChoiceError(
        `This agent asks for the model "${override}", but no language model provider is configured on this server.`,
      );
    if (!isConfigured(config, provider))
      throw new ModelChoiceError(
        `This agent asks for the model "${override}", but the ${provider === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} provider is not configured on this server (${ENV_HINT[provider]}).`,
      );
  } else {
    provider = defaultProvider(config);
    if (!provider) return null;
    modelId = provider === 'openai' ? config.OPENAI_MODEL : config.ANTHROPIC_MODEL;
  }
  const label = `${provider}:${modelId}`;
  if (provider === 'openai') {
    const openai = createOpenAICompatible({
      name: 'openai',
      baseURL: config.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL,
      ...(config.OPENAI_API_KEY ? { apiKey: config.OPENAI_API_KEY } : {}),
      // Token counts arrive in the stream's last chunk only when asked for (stream_options.include_usage).
      includeUsage: true,
    });
    return { model: openai.chatModel(modelId), label };
  }
  const anthropic = createAnthropic({
    apiKey: config.ANTHROPIC_API_KEY,
    ...(config.ANTHROPIC_BASE_URL ? { baseURL: config.ANTHROPIC_BASE_URL } : {}),
  });
  return { model: anthropic(modelId), label, maxOutputTokens: ANTHROPIC_MAX_OUTPUT_TOKENS };
}
