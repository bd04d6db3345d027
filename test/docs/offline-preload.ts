// Loaded with `--import` before a docs code block runs in a child process: the block may reach only
// this machine. The model providers' hosts go to the test's fake model server, and resolving any
// other host name than localhost fails, so a block that would reach the internet fails instead (the
// docs name no public IP address).
import dns from 'node:dns';
import { isIP } from 'node:net';

/** The fake model server, `http://127.0.0.1:PORT`. */
const modelOrigin = process.env['DOCS_TEST_MODEL_ORIGIN'];
/** `document:line` of the running block, sent to the fake model server with each request. */
const snippet = process.env['DOCS_TEST_SNIPPET'] ?? 'unknown';
if (modelOrigin === undefined) throw new Error('offline-preload: set DOCS_TEST_MODEL_ORIGIN');

/** Hosts the adapters call when no base URL is given (the DeepSeek adapter reads none from the environment). */
const providerHosts = new Set(['api.deepseek.com', 'api.openai.com']);
const localNames = new Set(['localhost']);
/** Names that resolve as usual: `localhost`, and IP addresses (a server listening on 127.0.0.1 looks its address up). */
const resolvesAsUsual = (hostname: string): boolean => isIP(hostname) !== 0 || localNames.has(hostname);

const originalFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const routed = providerHosts.has(url.hostname);
  if (!routed && url.origin !== modelOrigin) return originalFetch(input, init);
  const target = routed ? new URL(`${url.pathname}${url.search}`, modelOrigin) : url;
  const request = new Request(target, input instanceof Request ? input : init);
  request.headers.set('x-docs-snippet', snippet);
  if (routed) request.headers.set('x-docs-routed-from', url.hostname);
  return originalFetch(request);
};

function refuse(hostname: string): NodeJS.ErrnoException {
  return Object.assign(
    new Error(`getaddrinfo ENOTFOUND ${hostname} (the docs test lets a code block reach only this machine)`),
    { code: 'ENOTFOUND', hostname },
  );
}

const originalLookup = dns.lookup;
dns.lookup = ((hostname: string, ...rest: unknown[]) => {
  if (resolvesAsUsual(hostname)) return (originalLookup as (...args: unknown[]) => void)(hostname, ...rest);
  const callback = rest.at(-1) as (error: Error) => void;
  process.nextTick(callback, refuse(hostname));
}) as typeof dns.lookup;

const originalPromisesLookup = dns.promises.lookup;
dns.promises.lookup = ((hostname: string, ...rest: unknown[]) =>
  resolvesAsUsual(hostname)
    ? (originalPromisesLookup as (...args: unknown[]) => Promise<unknown>)(hostname, ...rest)
    : Promise.reject(refuse(hostname))) as typeof dns.promises.lookup;
