// Run by connection-error.test.ts in a child process without network (`unshare -rn`), which the
// test kills at a deadline: one call to a host that cannot resolve, through the real `openai`
// client. Prints one JSON line with how it settled.
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';

const baseURL = process.argv[2] ?? '';
const started = performance.now();
const adapter = new OpenAIAdapter({ model: 'm', apiKey: 'sk-test-secret', baseURL, maxRetries: 0 });
const error = await adapter.call([{ role: 'user', content: 'hi' }], []).then(
  () => undefined,
  (caught: unknown) => caught as Record<string, unknown>,
);
console.log(
  JSON.stringify({
    elapsedMs: Math.round(performance.now() - started),
    name: error?.['name'],
    message: error?.['message'],
    origin: error?.['origin'],
    causeCode: error?.['causeCode'],
  }),
);
