import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.js';

const redisServerPath = '/usr/bin/redis-server';

/** A Redis server of a test, on 127.0.0.1 and a free port, in a temp folder of its own. */
export interface RedisServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** `ioredis` options for it. */
  readonly connection: { readonly host: '127.0.0.1'; readonly port: number };
  /** Kills the server (SIGKILL), as a crash would; `start()` brings it back on the same port. */
  kill(): Promise<void>;
  /** Starts it again (after `kill`), on the same port and folder. */
  start(): Promise<void>;
  /** Stops the server (SIGKILL, bounded) and removes its folder. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /**
   * Keep the data across a kill and restart: an append-only file flushed on every write. Off by
   * default: no persistence at all (`--save '' --appendonly no`).
   */
  readonly persistent?: boolean;
  /** A port to use (for a server started later, after a client). @default a free port */
  readonly port?: number;
  /** Do not start it yet: call `start()`. @default false */
  readonly deferStart?: boolean;
}

/** Why no server can be started here, or `undefined` when one can. */
export function redisUnavailableReason(): string | undefined {
  return existsSync(redisServerPath)
    ? undefined
    : `no ${redisServerPath}; install the Debian package redis-server`;
}

/** Starts a throwaway `redis-server`; every wait is bounded. */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServer> {
  if (redisUnavailableReason() !== undefined) throw new Error(redisUnavailableReason());
  const folder = await mkdtemp(join(tmpdir(), 'redis-test-'));
  const port = options.port ?? (await freePort());
  let child: ChildProcess | undefined;
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    folder,
    '--save',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'no',
    ...(options.persistent ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']),
  ];
  let log = '';
  const start = async (): Promise<void> => {
    log = '';
    const started = spawn(redisServerPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
    started.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log = (log + chunk).slice(-4000)));
    const deadline = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null || Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(`redis-server did not start on port ${port}: ${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (running === undefined || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  };
  if (!options.deferStart) {
    try {
      await start();
    } catch (error) {
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }
  return {
    host: '127.0.0.1',
    port,
    connection: { host: '127.0.0.1', port },
    kill,
    start,
    stop: async () => {
      try {
        await kill();
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  };
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
