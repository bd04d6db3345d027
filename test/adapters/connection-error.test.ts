import { execFile, execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { OpenAIAdapter } from '../../src/adapters/openai/index.js';
import { ConnectionError, ToolOrchestrator } from '../../src/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const child = join(root, 'test', 'adapters', 'unreachable-host-child.ts');
const deadlineMs = 20_000;

/** A port on 127.0.0.1 that nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True when this machine can run a process in a network namespace of its own (Linux user namespaces). */
function canRunWithoutNetwork(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    execFileSync('unshare', ['-rn', 'true'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

describe('ConnectionError names where it tried to connect and why it could not', () => {
  it('says the origin and ECONNREFUSED for a closed port, through the real openai client', async () => {
    const port = await closedPort();
    const adapter = new OpenAIAdapter({
      model: 'm',
      apiKey: 'sk-test-secret',
      // A key in the path or the query must never reach the message.
      baseURL: `http://127.0.0.1:${port}/v1/sk-path-secret?api-key=sk-query-secret`,
      maxRetries: 0,
    });
    const error = await adapter.call([{ role: 'user', content: 'hi' }], []).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConnectionError);
    const connectionError = error as ConnectionError;
    expect(connectionError.message).toBe(
      `Could not reach openai at http://127.0.0.1:${port}: connection refused (ECONNREFUSED). Check baseURL, and that the server is running and reachable from here.`,
    );
    expect(connectionError).toMatchObject({
      code: 'connection_error',
      provider: 'openai',
      origin: `http://127.0.0.1:${port}`,
      causeCode: 'ECONNREFUSED',
      retryable: true,
    });
    expect(connectionError.message).not.toMatch(/sk-|\/v1/);
  });

  it('carries the same message into the run’s error event', async () => {
    const port = await closedPort();
    const adapter = new OpenAIAdapter({
      model: 'm',
      apiKey: 'sk-test-secret',
      baseURL: `http://127.0.0.1:${port}/v1`,
      maxRetries: 0,
    });
    const events: { type: string; data: unknown }[] = [];
    await expect(
      new ToolOrchestrator(adapter, {}, { traceEmitter: (event) => void events.push(event) }).run([
        { role: 'user', content: 'hi' },
      ]),
    ).rejects.toThrow(
      `Could not reach openai at http://127.0.0.1:${port}: connection refused (ECONNREFUSED).`,
    );
    expect(events.find((event) => event.type === 'error')?.data).toMatchObject({
      code: 'connection_error',
      message: expect.stringContaining(`http://127.0.0.1:${port}`),
    });
  });

  it.skipIf(!canRunWithoutNetwork())(
    'says the origin and the lookup failure for a host that cannot resolve, offline',
    async () => {
      // Without a network (a namespace of its own), the lookup fails at once and nothing leaves the machine.
      const outcome = await new Promise<Record<string, unknown>>((resolve, reject) => {
        execFile(
          'unshare',
          ['-rn', process.execPath, tsx, child, 'https://api.example.invalid/v1'],
          { cwd: root, timeout: deadlineMs, killSignal: 'SIGKILL' },
          (error, stdout, stderr) => {
            if (error !== null) {
              reject(
                new Error(`the child failed or hung (${error.message}); stderr: ${stderr.slice(0, 500)}`),
              );
              return;
            }
            resolve(JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>);
          },
        );
      });
      expect(outcome['name']).toBe('ConnectionError');
      expect(outcome['origin']).toBe('https://api.example.invalid');
      expect(['ENOTFOUND', 'EAI_AGAIN']).toContain(outcome['causeCode']);
      expect(outcome['message']).toMatch(
        /^Could not reach openai at https:\/\/api\.example\.invalid: host (not found \(ENOTFOUND\)|name lookup failed \(EAI_AGAIN\))\. /,
      );
      expect(outcome['elapsedMs']).toBeLessThan(5000);
    },
    deadlineMs + 5000,
  );
});
