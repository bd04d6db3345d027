import { ConnectionError } from '../../errors/connection-error.js';
import { causeCode } from '../../errors/cause-code.js';

/** System error codes in words, for messages. */
const reasons: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'connecting timed out',
  UND_ERR_SOCKET: 'the connection broke',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate could not be verified',
};

/**
 * The origin of a base URL (`'https://api.openai.com'`): never its path or query, which can hold a
 * key, nor a user and password. `undefined` when there is no URL or it does not parse.
 */
export function originOf(baseURL: string | undefined): string | undefined {
  if (baseURL === undefined) return undefined;
  try {
    const origin = new URL(baseURL).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * The error for a request that reached no server (the `openai` client's `APIConnectionError`):
 * it names the provider, the origin and the system's reason, e.g. `Could not reach openai at
 * http://127.0.0.1:8000: connection refused (ECONNREFUSED).` The message never quotes the cause's
 * own text, which can hold the whole URL.
 */
export function unreachable(error: Error, provider: string, baseURL: string | undefined): ConnectionError {
  const origin = originOf(baseURL);
  const code = causeCode(error);
  const said = error.message.replace(/\.+$/, '');
  const reason = code === undefined ? said : `${reasons[code] ?? said} (${code})`;
  return new ConnectionError({
    provider,
    cause: error,
    ...(origin === undefined ? {} : { origin }),
    ...(code === undefined ? {} : { causeCode: code }),
    message: `Could not reach ${provider}${origin === undefined ? '' : ` at ${origin}`}: ${reason}. Check baseURL, and that the server is running and reachable from here.`,
  });
}
