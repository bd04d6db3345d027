import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { optionalDependency } from '../../shared/optional-dependency.js';
import type { JsonSchema } from '../../model/model-adapter.js';
import type { ClientConnection, ClientSource } from '../shared/create-client.js';
import type { ConnectionWire } from '../shared/adapter-connection.js';
import type { AnthropicClient } from './anthropic-client.js';

/** Loads `@anthropic-ai/sdk`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
const loadAnthropic = optionalDependency({
  packageName: '@anthropic-ai/sdk',
  versionRange: '^1',
  installCommand: 'npm install @anthropic-ai/sdk',
  neededFor: "The Anthropic adapter's requests (tool-orchestrator/anthropic)",
  load: () => import('./anthropic-module.js'),
});

/** The `output_config.format` of a JSON Schema, in the subset Claude's structured outputs take. */
export type OutputFormatOf = (schema: JsonSchema) => {
  readonly type: 'json_schema';
  readonly schema: JsonSchema;
};

/**
 * The SDK's `jsonSchemaOutputFormat` helper, loading `@anthropic-ai/sdk` on first use: it closes
 * every object (`additionalProperties: false`), sends `oneOf` as `anyOf`, and moves the
 * constraints Claude cannot enforce (`minimum`, `maxLength`, ...) into descriptions.
 *
 * @throws {MissingDependencyError} when `@anthropic-ai/sdk` is not installed.
 */
export async function loadOutputFormatHelper(): Promise<OutputFormatOf> {
  const { jsonSchemaOutputFormat } = await loadAnthropic();
  return (schema) => {
    const { type, schema: converted } = jsonSchemaOutputFormat(schema as never);
    return { type, schema: converted };
  };
}

/**
 * Loads `@anthropic-ai/sdk`, and takes the injected client or builds one from the settings.
 *
 * @throws {MissingDependencyError} when `@anthropic-ai/sdk` is not installed.
 * @throws {InvalidArgumentError} in a browser without `dangerouslyAllowBrowser: true`.
 */
export async function connectAnthropic(
  source: ClientSource<AnthropicClient>,
): Promise<ClientConnection<AnthropicClient>> {
  const { Anthropic, decodeServerSentEvents } = await loadAnthropic();
  if ('client' in source) return { client: source.client, decodeEvents: decodeServerSentEvents };
  const settings = source.settings;
  try {
    const client = new Anthropic({
      apiKey: settings.apiKey ?? null,
      ...(settings.baseURL === undefined || settings.baseURL === null ? {} : { baseURL: settings.baseURL }),
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
      ...(settings.defaultHeaders === undefined
        ? {}
        : { defaultHeaders: settings.defaultHeaders as Record<string, string> }),
      ...(settings.dangerouslyAllowBrowser === undefined
        ? {}
        : { dangerouslyAllowBrowser: settings.dangerouslyAllowBrowser }),
    }) as unknown as AnthropicClient;
    return { client, decodeEvents: decodeServerSentEvents };
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('dangerouslyAllowBrowser')) throw error;
    throw new InvalidArgumentError({
      argument: 'dangerouslyAllowBrowser',
      value: settings.dangerouslyAllowBrowser,
      message:
        'the adapter runs in a browser, where the @anthropic-ai/sdk client refuses to hold an API key: anyone who opens the page can read it. ' +
        'Call the model from your server, or pass dangerouslyAllowBrowser: true with a key that may be public.',
    });
  }
}

/** How the Anthropic adapter reaches the Messages API: its client, and Anthropic's `request-id` header. */
export const anthropicWire: ConnectionWire<AnthropicClient> = {
  connect: connectAnthropic,
  requestIdHeader: 'request-id',
  defaultBaseURL: 'https://api.anthropic.com',
};
