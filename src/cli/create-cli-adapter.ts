import type { ModelAdapter } from '../model/model-adapter.js';
import { UsageError } from './cli-io.js';

/** What the `explore` flags say about the model. */
export interface CliAdapterFlags {
  readonly provider?: string | undefined;
  readonly model?: string | undefined;
  readonly baseUrl?: string | undefined;
}

const missingKeyMessage = `no API key. Set DEEPSEEK_API_KEY (DeepSeek) or OPENAI_API_KEY (OpenAI),
or point --base-url at a local OpenAI-compatible server (Ollama, vLLM, llama.cpp), which needs no key:
  tool-orchestrator explore "..." --repo . --base-url http://127.0.0.1:11434/v1 --model qwen3`;

/**
 * Chooses and builds the adapter from flags and environment; a usage error when no route works.
 * The adapters (and the openai client) load only once the flags and the key are known to be usable.
 */
export async function createCliAdapter(
  flags: CliAdapterFlags,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ModelAdapter> {
  const provider =
    flags.provider ?? (env['DEEPSEEK_API_KEY'] && flags.baseUrl === undefined ? 'deepseek' : 'openai');
  if (provider !== 'deepseek' && provider !== 'openai') {
    throw new UsageError(
      `unknown --provider ${JSON.stringify(provider)}: use deepseek or openai (openai also covers any OpenAI-compatible server via --base-url).`,
    );
  }
  const keyName = provider === 'deepseek' ? 'DEEPSEEK_API_KEY' : 'OPENAI_API_KEY';
  const apiKey = env[keyName] || (flags.baseUrl === undefined ? undefined : 'not-needed');
  if (apiKey === undefined) throw new UsageError(missingKeyMessage);
  const common = { apiKey, ...(flags.baseUrl === undefined ? {} : { baseURL: flags.baseUrl }) };
  if (provider === 'deepseek') {
    const { DeepSeekAdapter } = await import('../adapters/deepseek/deepseek-adapter.js');
    return new DeepSeekAdapter({ ...common, model: flags.model ?? 'deepseek-v4-flash' });
  }
  if (flags.model === undefined) {
    throw new UsageError(
      '--model is required with --provider openai or --base-url (e.g. --model gpt-5-mini, or your local model name).',
    );
  }
  const { OpenAIAdapter } = await import('../adapters/openai/openai-adapter.js');
  return new OpenAIAdapter({ ...common, model: flags.model });
}
