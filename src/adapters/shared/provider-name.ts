import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';

/**
 * Hosts of providers that speak Chat Completions, by their OpenTelemetry GenAI
 * `gen_ai.provider.name` well-known value. A host not listed (a local server, a gateway) keeps
 * the adapter's own name, as the conventions ask of an OpenAI client that cannot tell.
 */
const knownHosts: readonly (readonly [host: string, provider: string])[] = [
  ['api.openai.com', 'openai'],
  ['api.deepseek.com', 'deepseek'],
  ['openai.azure.com', 'azure.ai.openai'],
  ['api.anthropic.com', 'anthropic'],
  ['api.cohere.ai', 'cohere'],
  ['api.cohere.com', 'cohere'],
  ['generativelanguage.googleapis.com', 'gcp.gemini'],
  ['api.groq.com', 'groq'],
  ['api.mistral.ai', 'mistral_ai'],
  ['api.perplexity.ai', 'perplexity'],
  ['api.x.ai', 'x_ai'],
];

/**
 * The provider name an adapter gives traces and errors: the `provider` option when set, else the
 * well-known name of the base URL's host (`api.groq.com` is `'groq'`, any `*.openai.azure.com` is
 * `'azure.ai.openai'`), else the adapter's own (`'openai'`, `'deepseek'`).
 *
 * @throws {InvalidArgumentError} when `provider` is given but is not a non-empty string.
 */
export function providerName(
  provider: unknown,
  baseURL: string | undefined,
  adapterProvider: string,
): string {
  if (provider !== undefined) {
    if (typeof provider !== 'string' || provider.trim() === '') {
      throw new InvalidArgumentError({
        argument: 'provider',
        value: provider,
        message:
          "must be a non-empty string naming the server's provider in traces and errors, e.g. 'groq' or 'ollama'.",
      });
    }
    return provider;
  }
  const host = hostOf(baseURL);
  if (host === undefined) return adapterProvider;
  const known = knownHosts.find(([name]) => host === name || host.endsWith(`.${name}`));
  return known?.[1] ?? adapterProvider;
}

function hostOf(baseURL: string | undefined): string | undefined {
  if (baseURL === undefined) return undefined;
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}
