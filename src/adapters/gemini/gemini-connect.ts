import { optionalDependency } from '../../shared/optional-dependency.js';
import type { ClientConnection, ClientSource } from '../shared/create-client.js';
import type { ConnectionWire } from '../shared/adapter-connection.js';
import type { GeminiClient } from './gemini-client.js';

/** Loads `@google/genai`, an optional peer dependency, on first use; a `MissingDependencyError` says how to install it. */
const loadGenai = optionalDependency({
  packageName: '@google/genai',
  versionRange: '^2',
  installCommand: 'npm install @google/genai@2',
  neededFor: "The Gemini adapter's requests (tool-orchestrator/gemini)",
  load: () => import('./gemini-module.js'),
});

/** A Gemini client with the retry budget and timeout the shared retry loop reads. */
export interface GeminiHandle {
  readonly genai: GeminiClient;
  readonly maxRetries: number;
  readonly timeout: number;
}

/** Retries when neither the adapter nor the client says: as the other adapters. */
export const defaultMaxRetries = 2;
/** Milliseconds an attempt may take when the adapter's `timeout` is not given: ten minutes, as the other adapters. */
export const defaultTimeoutMs = 600_000;

/** Never called: the raw SSE parser is not used, the client parses its own stream. */
const noDecoder: ClientConnection['decodeEvents'] = () => {
  throw new Error('The Gemini adapter reads the stream through @google/genai.');
};

/**
 * Loads `@google/genai`, and takes the injected client or builds a `GoogleGenAI` from the settings
 * (its own retries off: the adapter retries).
 *
 * @throws {MissingDependencyError} when `@google/genai` is not installed.
 */
export async function connectGemini(
  source: ClientSource<GeminiHandle>,
): Promise<ClientConnection<GeminiHandle>> {
  const { GoogleGenAI } = await loadGenai();
  if ('client' in source) return { client: source.client, decodeEvents: noDecoder };
  const settings = source.settings;
  const headers = settings.defaultHeaders as Record<string, string> | undefined;
  const genai = new GoogleGenAI({
    apiKey: typeof settings.apiKey === 'string' ? settings.apiKey : '',
    httpOptions: {
      ...(settings.baseURL === undefined || settings.baseURL === null ? {} : { baseUrl: settings.baseURL }),
      ...(headers === undefined ? {} : { headers }),
    },
  }) as unknown as GeminiClient;
  return {
    client: {
      genai,
      maxRetries: settings.maxRetries ?? defaultMaxRetries,
      timeout: settings.timeout ?? defaultTimeoutMs,
    },
    decodeEvents: noDecoder,
  };
}

/** How the Gemini adapter reaches the Gemini API: through `@google/genai`. */
export const geminiWire: ConnectionWire<GeminiHandle> = {
  connect: connectGemini,
  requestIdHeader: 'x-request-id',
  defaultBaseURL: 'https://generativelanguage.googleapis.com',
};
