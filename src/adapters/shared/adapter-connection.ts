import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { AttemptDeadline } from './attempt-deadline.js';
import type { ChatCompletionsAdapterOptions } from './chat-completions-options.js';
import { clientSource } from './create-client.js';
import type {
  ClientConnection,
  ClientSource,
  ClientSourceOptions,
  ProviderDefaults,
} from './create-client.js';
import { knownContextWindow } from './model-context-windows.js';
import type { OpenAIRequestOptions } from './openai-client.js';
import type { ResponseOrigin } from './parse-completion.js';
import { providerName } from './provider-name.js';
import type { AttemptsOptions } from './with-retries.js';

/** What every client the adapters use has: its retry budget and its timeout. */
interface RetryingClient {
  readonly maxRetries: number;
  /** Milliseconds an attempt may take; the adapter's default `timeout`. */
  readonly timeout: number;
}

/** How a connection reaches its provider's API, when it is not over the `openai` client. */
export interface ConnectionWire<Client extends object> {
  /** Loads the client package, and takes the injected client or builds one. */
  readonly connect: (source: ClientSource<Client>) => Promise<ClientConnection<Client>>;
  /** The response header holding the request id, e.g. `'x-request-id'`. */
  readonly requestIdHeader: string;
  /** The client's default base URL, named in connection errors (`openai`'s when neither `baseURL` nor `OPENAI_BASE_URL` names another). */
  readonly defaultBaseURL: string;
}

/** The options an {@link AdapterConnection} reads. */
export type AdapterConnectionOptions<Client extends object> = ClientSourceOptions<Client> &
  Pick<ChatCompletionsAdapterOptions, 'provider' | 'retryBaseDelayMs'>;

/**
 * The part every adapter over a provider's official client (`openai`, `@anthropic-ai/sdk`) shares:
 * where its client comes from (injected, or built on the first request), the provider name and
 * base URL its errors name, and the settings of each request's attempts.
 */
export class AdapterConnection<Client extends RetryingClient> {
  /** The provider name used in errors and traces: the `provider` option, else one read from the base URL. */
  readonly provider: string;
  readonly #source: ClientSource<Client>;
  readonly #defaults: ProviderDefaults;
  readonly #options: AdapterConnectionOptions<Client>;
  /** Where requests go, when known: named in connection errors (its origin only). */
  readonly #baseURL: string | undefined;
  readonly #wire: ConnectionWire<Client>;
  #connection: Promise<ClientConnection<Client>> | undefined;

  /**
   * Checks the client options (see `clientSource`); builds nothing yet.
   *
   * @throws {MissingApiKeyError} when there is no client, no `apiKey` and no key in the environment.
   * @throws {InvalidArgumentError} when an option has a value it cannot take.
   */
  constructor(
    options: AdapterConnectionOptions<Client>,
    defaults: ProviderDefaults,
    wire: ConnectionWire<Client>,
  ) {
    this.#source = clientSource(options, defaults);
    this.#defaults = defaults;
    this.#options = options;
    this.#wire = wire;
    this.#baseURL =
      'client' in this.#source
        ? clientBaseURL(this.#source.client)
        : (this.#source.settings.baseURL ?? wire.defaultBaseURL);
    this.provider = providerName(options.provider, this.#baseURL, defaults.provider);
  }

  /** The injected client, or the one built for the first request (loading `openai` then). */
  async getClient(): Promise<Client> {
    if ('client' in this.#source) return this.#source.client;
    return (await this.connect()).client;
  }

  /** The client and the `openai` package's SSE parser, loaded on the first request. */
  connect(): Promise<ClientConnection<Client>> {
    if (this.#connection === undefined) {
      const connecting = this.#wire.connect(this.#source);
      this.#connection = connecting;
      // A failed load is tried again on the next request (the user may install openai meanwhile).
      connecting.catch(() => {
        if (this.#connection === connecting) this.#connection = undefined;
      });
    }
    return this.#connection;
  }

  /** How one request's attempts run: the client's timeout, the adapter's retry options over the client's. */
  attempts(client: Client, signal: AbortSignal | undefined): AttemptsOptions {
    return {
      signal,
      timeoutMs: client.timeout,
      settings: {
        provider: this.provider,
        environmentVariable: this.#defaults.environmentVariable,
        baseURL: this.#baseURL,
        maxRetries: this.#options.maxRetries ?? client.maxRetries,
        maxRetryDelayMs: this.#options.maxRetryDelayMs ?? 60_000,
        retryBaseDelayMs: this.#options.retryBaseDelayMs ?? 500,
      },
    };
  }

  /** Who answered: the provider and the response's request id (`x-request-id`, Anthropic's `request-id`). */
  origin(response: Response): ResponseOrigin {
    return {
      provider: this.provider,
      requestId: response.headers.get(this.#wire.requestIdHeader) ?? undefined,
    };
  }
}

/**
 * The context window an adapter reports: the `contextWindowTokens` option, else the published
 * window of a well-known model, else `undefined`.
 *
 * @throws {InvalidArgumentError} when the option is not a positive integer.
 */
export function contextWindowOption(options: {
  readonly model: string;
  readonly contextWindowTokens?: number | undefined;
}): number | undefined {
  const window: unknown = options.contextWindowTokens;
  if (window === undefined) return knownContextWindow(options.model);
  if (typeof window === 'number' && Number.isInteger(window) && window > 0) return window;
  throw new InvalidArgumentError({
    argument: 'contextWindowTokens',
    value: window,
    message: "must be a positive integer: the model's context window in tokens.",
  });
}

/** The client's options for one attempt: its signal, and no retries of the client's own. */
export function requestOptions(deadline: AttemptDeadline): OpenAIRequestOptions {
  // The client's retries sleep without watching the signal: the adapter retries instead.
  return { maxRetries: 0, signal: deadline.signal };
}

/** The base URL requests go to: an injected client of another major, or a stand-in, may lack one. */
function clientBaseURL(client: object): string | undefined {
  const baseURL: unknown = (client as { baseURL?: unknown }).baseURL;
  return typeof baseURL === 'string' ? baseURL : undefined;
}
