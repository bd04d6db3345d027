import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChildOutcome, ChildScenario } from './adapter-child.js';
import { completion, startFakeOpenAIServer } from './fake-openai-server.js';
import type { FakeOpenAIServer, FakeResponse } from './fake-openai-server.js';

// #10 item 13: a 429 with `retry-after: 3600` must not make a call wait an hour, and every wait
// must end when the call is aborted. Each call runs in a child process killed at a deadline, so
// a regression (an hour-long sleep, an abort that is ignored) fails here instead of hanging.

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const child = join(root, 'test', 'adapters', 'adapter-child.ts');
const deadlineMs = 15_000;

let server: FakeOpenAIServer;
beforeEach(async () => {
  server = await startFakeOpenAIServer();
});
afterEach(() => server.close());

/** Runs one adapter call in a child; rejects when the child had to be killed at the deadline. */
function runInChild(scenario: Omit<ChildScenario, 'baseURL'>): Promise<ChildOutcome> {
  const input: ChildScenario = { baseURL: server.baseURL, ...scenario };
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsx, child, JSON.stringify(input)],
      { cwd: root, timeout: deadlineMs, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(
            new Error(
              `the child did not exit by itself within ${deadlineMs} ms (${error.message}); ` +
                `stdout: ${stdout.trim() || '-'}; stderr: ${stderr.trim().slice(0, 500) || '-'}`,
            ),
          );
          return;
        }
        resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as ChildOutcome);
      },
    );
  });
}

function rateLimited(headers: Record<string, string>, status = 429): FakeResponse {
  return {
    type: 'json',
    status,
    body: {
      error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    },
    headers,
  };
}

const ok: FakeResponse = { type: 'json', body: completion({ content: 'ok' }) };

describe('a retry-after longer than maxRetryDelayMs', () => {
  it('fails at once with a RateLimitError carrying retryAfterMs instead of waiting an hour', async () => {
    server.enqueue(rateLimited({ 'retry-after': '3600' }), ok);
    const outcome = await runInChild({ via: 'call', maxRetries: 2 });
    expect(outcome).toMatchObject({
      settled: 'rejected',
      name: 'RateLimitError',
      code: 'rate_limit',
      retryAfterMs: 3_600_000,
      retryAfterSeconds: 3600,
    });
    expect(outcome.message).toContain('longer than maxRetryDelayMs (60000 ms)');
    expect(outcome.elapsedMs).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('honours a smaller maxRetryDelayMs, and retry-after-ms', async () => {
    server.enqueue(rateLimited({ 'retry-after-ms': '1500' }), ok);
    const outcome = await runInChild({ via: 'stream', maxRetries: 2, maxRetryDelayMs: 1000 });
    expect(outcome).toMatchObject({ settled: 'rejected', name: 'RateLimitError', retryAfterMs: 1500 });
    expect(outcome.elapsedMs).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
  });
  it('fails at once on a 503 that asks for an hour too, with a ServerError', async () => {
    server.enqueue(rateLimited({ 'retry-after': '3600' }, 503), ok);
    const outcome = await runInChild({ via: 'call', maxRetries: 2 });
    expect(outcome).toMatchObject({ settled: 'rejected', name: 'ServerError', retryAfterMs: 3_600_000 });
    expect(outcome.message).toContain('It asked to wait 3600 s, longer than maxRetryDelayMs (60000 ms)');
    expect(outcome.elapsedMs).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });
});

describe('aborting during a retry wait', () => {
  it('ends the wait of call() at once', async () => {
    server.enqueue(rateLimited({ 'retry-after': '30' }), ok);
    const outcome = await runInChild({ via: 'call', maxRetries: 2, abortAfterMs: 300 });
    expect(outcome).toMatchObject({ settled: 'rejected', name: 'AbortError' });
    expect(outcome.elapsedMs).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('ends a streaming ToolOrchestrator run as aborted at once', async () => {
    server.enqueue(rateLimited({ 'retry-after': '30' }), ok);
    const outcome = await runInChild({ via: 'orchestrator', maxRetries: 2, abortAfterMs: 300 });
    expect(outcome).toMatchObject({ settled: 'resolved', stopReason: 'aborted' });
    expect(outcome.elapsedMs).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });
});
