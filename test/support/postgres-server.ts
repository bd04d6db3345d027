import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/** A PostgreSQL server of a test: its own cluster in a temp folder, on 127.0.0.1 and a free port. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication: no password). */
  readonly connectionString: string;
  readonly port: number;
  /** The cluster's data folder. */
  readonly dataDirectory: string;
  /** Stops the server (immediate shutdown, bounded) and removes its folder. */
  stop(): Promise<void>;
}

/** Options of {@link startPostgresServer}. */
export interface StartPostgresServerOptions {
  /**
   * Flush to disk as a production server does. Off by default: tests need speed, not durability
   * across a power loss (`fsync=off`, `synchronous_commit=off`). @default false
   */
  readonly durable?: boolean;
}

/** Where Debian's `postgresql` packages put the binaries (not on the PATH); the newest major first. */
export function findPostgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/** Why no server can be started here, or `undefined` when one can. */
export function postgresUnavailableReason(): string | undefined {
  if (findPostgresBinaries() === undefined) {
    return 'no initdb under /usr/lib/postgresql/*/bin; install the Debian package postgresql';
  }
  if (process.getuid?.() === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
    return 'running as root, and runuser (to run initdb as the postgres user) is missing';
  }
  return undefined;
}

/**
 * Starts a throwaway PostgreSQL: `initdb` into a temp folder (as the `postgres` user when this
 * process is root: initdb refuses root), then `pg_ctl start` listening on 127.0.0.1 and a free port,
 * with its unix socket in the temp folder. Every step is bounded; a failed start removes the folder.
 */
export async function startPostgresServer(options: StartPostgresServerOptions = {}): Promise<PostgresServer> {
  const binaries = findPostgresBinaries();
  if (binaries === undefined) throw new Error(postgresUnavailableReason());
  const folder = await mkdtemp(join(tmpdir(), 'postgres-test-'));
  const dataDirectory = join(folder, 'data');
  const asPostgres = process.getuid?.() === 0;
  if (asPostgres) {
    const { stdout } = await run('id', ['-u', 'postgres'], { timeout: 5_000 });
    const { stdout: group } = await run('id', ['-g', 'postgres'], { timeout: 5_000 });
    await chown(folder, Number(stdout.trim()), Number(group.trim()));
  }
  const command = (file: string, args: readonly string[], timeout: number) =>
    asPostgres
      ? run('runuser', ['-u', 'postgres', '--', join(binaries, file), ...args], { timeout })
      : run(join(binaries, file), [...args], { timeout });
  try {
    await command(
      'initdb',
      ['-D', dataDirectory, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--no-instructions'],
      60_000,
    );
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      const settings = [
        `-p ${port}`,
        `-k ${folder}`,
        '-c listen_addresses=127.0.0.1',
        ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
      ].join(' ');
      try {
        await command(
          'pg_ctl',
          ['start', '-D', dataDirectory, '-w', '-t', '30', '-l', join(folder, 'server.log'), '-o', settings],
          40_000,
        );
      } catch (error) {
        // Another process may have taken the port between the probe and the start.
        if (attempt < 3) continue;
        throw error;
      }
      return {
        connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
        port,
        dataDirectory,
        stop: async () => {
          try {
            await command(
              'pg_ctl',
              ['stop', '-D', dataDirectory, '-m', 'immediate', '-w', '-t', '15'],
              20_000,
            );
          } finally {
            await rm(folder, { recursive: true, force: true });
          }
        },
      };
    }
  } catch (error) {
    await command('pg_ctl', ['stop', '-D', dataDirectory, '-m', 'immediate', '-w', '-t', '15'], 20_000).catch(
      () => undefined,
    );
    await rm(folder, { recursive: true, force: true });
    const detail = (error as { stderr?: unknown }).stderr;
    throw new Error(`PostgreSQL did not start: ${String(detail ?? error)}`, { cause: error });
  }
}
