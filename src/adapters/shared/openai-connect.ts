import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { optionalDependency } from '../../shared/optional-dependency.js';
import type { ClientConnection, ClientSource } from './create-client.js';
import type { OpenAIClient } from './openai-client.js';
import type { ConnectionWire } from './adapter-connection.js';

/** Loads `openai`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
const loadOpenAI = optionalDependency({
  packageName: 'openai',
  versionRange: '^5 || ^6',
  installCommand: 'npm install openai',
  neededFor:
    'The OpenAI, OpenAI Responses and DeepSeek adapters (tool-orchestrator/openai, tool-orchestrator/deepseek)',
  load: () => import('./openai-module.js'),
});

/**
 * Loads `openai`, and takes the injected client or builds one from the settings.
 *
 * @throws {MissingDependencyError} when `openai` is not installed.
 * @throws {InvalidArgumentError} in a browser without `dangerouslyAllowBrowser: true`, where the
 * client refuses to hold an API key.
 */
export async function connectClient<Client extends object = OpenAIClient>(
  source: ClientSource<Client>,
): Promise<ClientConnection<Client>> {
  const { OpenAI, decodeServerSentEvents } = await loadOpenAI();
  if ('client' in source) return { client: source.client, decodeEvents: decodeServerSentEvents };
  const settings = source.settings;
  try {
    // An `OpenAI` instance is every `Client` the adapters declare (OpenAIClient, OpenAIResponsesClient).
    const client = new OpenAI(settings) as unknown as Client;
    return { client, decodeEvents: decodeServerSentEvents };
  } catch (error) {
    if (!(error instanceof Error) || !error.message.includes('dangerouslyAllowBrowser')) throw error;
    throw new InvalidArgumentError({
      argument: 'dangerouslyAllowBrowser',
      value: settings.dangerouslyAllowBrowser,
      message:
        'the adapter runs in a browser, where the openai client refuses to hold an API key: anyone who opens the page can read it. ' +
        'Call the model from your server, or pass dangerouslyAllowBrowser: true with a key that may be public ' +
        '(a short-lived key, or a proxy of yours that holds the real one); see docs/adapters.md, "Browsers and edge runtimes".',
    });
  }
}

/** How the adapters over the `openai` client reach their API: that client, and the `x-request-id` header. */
export function openaiWire<Client extends object>(): ConnectionWire<Client> {
  return {
    connect: connectClient,
    requestIdHeader: 'x-request-id',
    defaultBaseURL: 'https://api.openai.com/v1',
  };
}
