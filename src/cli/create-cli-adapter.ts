import type { ModelAdapter } from '../model/model-adapter.js';
import { UsageError } from './cli-io.js';
import { baseUrlFlag, choiceFlag } from './flag-values.js';

/** What the `explore` flags say about the model. */
export interface CliAdapterFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
}

/** The providers the CLI can build an adapter for. */
export type CliProvider = 'deepseek' | 'openai';

/** The model settings after the one rule: flag, then `TOOL_ORCHESTRATOR_*`, then the provider's variable, then the default. */
export interface ModelSettings {
  readonly provider: CliProvider;
  readonly model: string;
  /** The endpoint every request goes to. */
  readonly baseURL: string;
  /** Where `baseURL` came from: `--base-url`, a variable's name, or `default`. */
  readonly baseUrlSource: string;
  /** `undefined` only for a base URL given explicitly (a local server needs no key). */
  readonly apiKey: string | undefined;
}

const providerDefaults = {
  deepseek: { prefix: 'DEEPSEEK', baseURL: 'https://api.deepseek.com', model: 'deepseek-v4-flash' },
  openai: { prefix: 'OPENAI', baseURL: 'https://api.openai.com/v1', model: undefined },
} as const;

const missingKeyMessage = `no API key. Set DEEPSEEK_API_KEY (DeepSeek) or OPENAI_API_KEY (OpenAI),
or point --base-url at a local OpenAI-compatible server (Ollama, vLLM, llama.cpp), which needs no key:
  tool-orchestrator explore "..." --repo . --base-url http://127.0.0.1:11434/v1 --model qwen3`;

/**
 * Applies the CLI's one rule for model settings. Each setting is read from, in order: its flag;
 * `TOOL_ORCHESTRATOR_<NAME>`; the provider's own variable (`DEEPSEEK_<NAME>` or `OPENAI_<NAME>`,
 * the ones the adapters and examples read); the default. Empty variables count as unset.
 * The provider, when not given, is `openai` for a `--base-url`/`TOOL_ORCHESTRATOR_BASE_URL`, else
 * `deepseek` when `DEEPSEEK_API_KEY` is set, else `openai`. A key is required unless the base URL
 * was given explicitly (flag or variable): a local server needs none.
 *
 * @throws {UsageError} for a bad value (naming the flag or variable it came from), a missing key or model.
 */
export function resolveModelSettings(
  flags: CliAdapterFlags,
  env: Readonly<Record<string, string | undefined>>,
): ModelSettings {
  const read = (name: string): { value: string; source: string } | undefined => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? undefined : { value, source: name };
  };
  const flag = (name: string, value: string | undefined) =>
    value === undefined ? undefined : { value, source: name };

  const providerSetting = flag('--provider', flags.provider) ?? read('TOOL_ORCHESTRATOR_PROVIDER');
  const explicitBase = flag('--base-url', flags.baseUrl) ?? read('TOOL_ORCHESTRATOR_BASE_URL');
  const provider: CliProvider =
    providerSetting !== undefined
      ? choiceFlag('--provider', providerSetting.value, ['deepseek', 'openai'], providerSetting.source)
      : explicitBase === undefined && read('DEEPSEEK_API_KEY') !== undefined
        ? 'deepseek'
        : 'openai';
  const defaults = providerDefaults[provider];
  const base = explicitBase ?? read(`${defaults.prefix}_BASE_URL`);
  const baseURL = base === undefined ? defaults.baseURL : baseUrlFlag(base.value, base.source);
  const apiKey = (read('TOOL_ORCHESTRATOR_API_KEY') ?? read(`${defaults.prefix}_API_KEY`))?.value;
  if (apiKey === undefined && base === undefined) {
    throw new UsageError(missingKeyMessage, { code: 'missing_api_key' });
  }
  const model =
    (flag('--model', flags.model) ?? read('TOOL_ORCHESTRATOR_MODEL') ?? read(`${defaults.prefix}_MODEL`))
      ?.value ?? defaults.model;
  if (model === undefined) {
    throw new UsageError(
      `--model is required with the openai provider: pass the model's name, e.g. --model gpt-5-mini or your local model (--model qwen3), or set TOOL_ORCHESTRATOR_MODEL or OPENAI_MODEL.`,
      { code: 'missing_argument' },
    );
  }
  return { provider, model, baseURL, baseUrlSource: base?.source ?? 'default', apiKey };
}

/** Builds the adapter for `settings`; the adapters (and the openai client) load only now. */
export async function createCliAdapter(settings: ModelSettings): Promise<ModelAdapter> {
  const common = {
    model: settings.model,
    baseURL: settings.baseURL,
    // The client insists on a key; a local server ignores it.
    apiKey: settings.apiKey ?? 'not-needed',
  };
  if (settings.provider === 'deepseek') {
    const { DeepSeekAdapter } = await import('../adapters/deepseek/deepseek-adapter.js');
    return new DeepSeekAdapter(common);
  }
  const { OpenAIAdapter } = await import('../adapters/openai/openai-adapter.js');
  return new OpenAIAdapter(common);
}
