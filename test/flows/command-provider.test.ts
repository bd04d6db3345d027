import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { createContextProviders } from '../../src/flows/context/create-context-providers.js';
import { commandEnvironment } from '../../src/flows/context/providers/command-environment.js';
import type { CommandSpec } from '../../src/flows/context/providers/command-provider.js';

/** Every pid a test's command wrote down; whatever is still alive after a test is killed. */
const started: number[] = [];

/** Every folder a test made; removed after it. */
const folders: string[] = [];

afterEach(async () => {
  for (const pid of started.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** True while `pid` runs. A zombie (exited, not yet reaped: this container's init does not reap) has ended. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function repo(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'command-provider-'));
  folders.push(folder);
  return folder;
}

async function runTests(root: string, spec: CommandSpec, signal?: AbortSignal): Promise<string> {
  const provider = createContextProviders({ root, commands: { run_tests: spec } }).run_tests!;
  return provider.fulfill({}, { signal });
}

type Settled = {
  readonly status: 'fulfilled' | 'rejected';
  readonly value: unknown;
  readonly elapsedMs: number;
};

/** Waits at most `deadlineMs` for `promise`; a promise still pending then fails the test. */
async function settleWithin(promise: Promise<unknown>, deadlineMs: number): Promise<Settled> {
  const start = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still pending after ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    const outcome = await Promise.race([
      promise.then(
        (value) => ({ status: 'fulfilled' as const, value }),
        (value: unknown) => ({ status: 'rejected' as const, value }),
      ),
      deadline,
    ]);
    return { ...outcome, elapsedMs: performance.now() - start };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads the pids a command wrote to `file`, waiting at most 5 s for it, and tracks them for `afterEach`. */
async function pidsIn(file: string): Promise<number[]> {
  const deadline = Date.now() + 5_000;
  while (!existsSync(file) || readFileSync(file, 'utf8') === '') {
    if (Date.now() > deadline) throw new Error(`${file} was not written within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const pids = JSON.parse(readFileSync(file, 'utf8')) as number[];
  started.push(...pids);
  return pids;
}

const ignoreSigterm = "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);";

/**
 * A command that starts a grandchild ignoring SIGTERM, writes both pids to argv[2], then:
 * `leave` exits at once, leaving the grandchild behind; `flood` ignores SIGTERM and prints
 * 17 MiB; `stay` ignores SIGTERM and runs on.
 */
const family = `
const { spawn } = require('node:child_process');
const { writeFileSync } = require('node:fs');
const [pidFile, mode] = process.argv.slice(2);
const grandchild = spawn(process.execPath, ['-e', ${JSON.stringify(ignoreSigterm)}], { stdio: 'ignore' });
writeFileSync(pidFile, JSON.stringify([process.pid, grandchild.pid]));
if (mode === 'leave') process.exit(0);
process.on('SIGTERM', () => {});
if (mode === 'flood') for (let i = 0; i < 17; i++) process.stdout.write('x'.repeat(1024 * 1024));
setInterval(() => {}, 1000);
`;

/** The command's grace between SIGTERM and SIGKILL, and room for a loaded machine. */
/**
 * The pids still running, given up to 1 s to go: a SIGKILL is delivered by the kernel in its own
 * time, and a loaded machine can take a moment before a killed process is gone.
 */
async function stillRunning(pids: readonly number[]): Promise<number[]> {
  const deadline = Date.now() + 1_000;
  let running = pids.filter(isRunning);
  while (running.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    running = running.filter(isRunning);
  }
  return running;
}

const graceMs = 2_000;
const slackMs = 1_500;

describe.skipIf(process.platform === 'win32')('command providers stop everything they started', () => {
  it('settles at timeoutMs plus the grace when the command ignores SIGTERM, and kills it', async () => {
    const root = await repo();
    const pidFile = join(root, 'pids.json');
    const code = `require('node:fs').writeFileSync(process.argv[1], JSON.stringify([process.pid])); ${ignoreSigterm}`;
    const call = runTests(root, { command: process.execPath, args: ['-e', code, pidFile], timeoutMs: 1_000 });
    const [pid] = await pidsIn(pidFile);
    const settled = await settleWithin(call, 8_000);
    expect(settled.status).toBe('rejected');
    expect(String(settled.value)).toContain('was stopped after 1000 ms');
    expect(settled.elapsedMs).toBeLessThan(1_000 + graceMs + slackMs);
    expect(await stillRunning([pid!])).toEqual([]);
  }, 15_000);

  it('kills the command and its SIGTERM-ignoring grandchild at the timeout', async () => {
    const root = await repo();
    const script = join(root, 'family.cjs');
    await writeFile(script, family);
    const pidFile = join(root, 'pids.json');
    const call = runTests(root, {
      command: process.execPath,
      args: [script, pidFile, 'stay'],
      timeoutMs: 500,
    });
    const pids = await pidsIn(pidFile);
    const settled = await settleWithin(call, 8_000);
    expect(settled.status).toBe('rejected');
    expect(String(settled.value)).toContain('was stopped after 500 ms');
    expect(settled.elapsedMs).toBeLessThan(500 + graceMs + slackMs);
    expect(await stillRunning(pids)).toEqual([]);
  }, 15_000);

  it('rejects promptly on abort with the abort reason, and kills the command and its grandchild', async () => {
    const root = await repo();
    const script = join(root, 'family.cjs');
    await writeFile(script, family);
    const pidFile = join(root, 'pids.json');
    const controller = new AbortController();
    const call = runTests(
      root,
      { command: process.execPath, args: [script, pidFile, 'stay'] },
      controller.signal,
    );
    const pids = await pidsIn(pidFile);
    const reason = new Error('the caller stopped');
    controller.abort(reason);
    const settled = await settleWithin(call, 8_000);
    expect(await stillRunning(pids)).toEqual([]);
    expect(settled.elapsedMs).toBeLessThan(graceMs + slackMs);
    expect(settled).toMatchObject({ status: 'rejected', value: reason });
  }, 15_000);

  it('rejects an abort without waiting for the grace when the command stops on SIGTERM', async () => {
    const root = await repo();
    const pidFile = join(root, 'pids.json');
    const code = `require('node:fs').writeFileSync(process.argv[1], JSON.stringify([process.pid])); setInterval(() => {}, 1000);`;
    const controller = new AbortController();
    const call = runTests(
      root,
      { command: process.execPath, args: ['-e', code, pidFile] },
      controller.signal,
    );
    const [pid] = await pidsIn(pidFile);
    controller.abort(new Error('the caller stopped'));
    const settled = await settleWithin(call, 8_000);
    expect(settled.status).toBe('rejected');
    expect(settled.elapsedMs).toBeLessThan(graceMs);
    expect(await stillRunning([pid!])).toEqual([]);
  }, 15_000);

  it('stops the whole group when the output passes 16 MiB', async () => {
    const root = await repo();
    const script = join(root, 'family.cjs');
    await writeFile(script, family);
    const pidFile = join(root, 'pids.json');
    const call = runTests(root, { command: process.execPath, args: [script, pidFile, 'flood'] });
    const pids = await pidsIn(pidFile);
    const settled = await settleWithin(call, 8_000);
    expect(await stillRunning(pids)).toEqual([]);
    expect(settled.status).toBe('rejected');
    expect(String(settled.value)).toContain('printed more than 16777216 bytes (16 MiB)');
  }, 15_000);

  it('kills what a command that exits by itself left running, then reports its exit code', async () => {
    const root = await repo();
    const script = join(root, 'family.cjs');
    await writeFile(script, family);
    const pidFile = join(root, 'pids.json');
    const call = runTests(root, { command: process.execPath, args: [script, pidFile, 'leave'] });
    const pids = await pidsIn(pidFile);
    const settled = await settleWithin(call, 8_000);
    expect(settled.status).toBe('fulfilled');
    expect(String(settled.value)).toContain('exit code 0');
    expect(await stillRunning(pids)).toEqual([]);
  }, 15_000);

  it('rejects at once, starting nothing, when the signal is already aborted', async () => {
    const root = await repo();
    const pidFile = join(root, 'pids.json');
    const code = `require('node:fs').writeFileSync(process.argv[1], '[]')`;
    const reason = new Error('aborted before');
    const settled = await settleWithin(
      runTests(root, { command: process.execPath, args: ['-e', code, pidFile] }, AbortSignal.abort(reason)),
      2_000,
    );
    expect(existsSync(pidFile)).toBe(false);
    expect(settled).toMatchObject({ status: 'rejected', value: reason });
  });
});

describe('the environment of command providers', () => {
  const secretName = 'TOOL_ORCHESTRATOR_TEST_SECRET';
  const secretValue = `fake-secret-${Math.random().toString(36).slice(2)}`;
  const saved: Record<string, string | undefined> = {};

  beforeEach(() => {
    for (const name of [secretName, 'OPENAI_API_KEY', 'NODE_ENV']) saved[name] = process.env[name];
    process.env[secretName] = secretValue;
    process.env.OPENAI_API_KEY = 'sk-fake-key-for-a-test';
    process.env.NODE_ENV = 'production';
  });

  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  /** Prints the names it got and the fake secrets' values only, so no real value reaches a report. */
  const printEnvironment = {
    command: process.execPath,
    args: [
      '-e',
      `console.log(JSON.stringify({ names: Object.keys(process.env), secret: process.env.${secretName} ?? null, key: process.env.OPENAI_API_KEY ?? null }))`,
    ],
  };

  async function environmentSeen(
    spec: CommandSpec,
  ): Promise<{ names: string[]; secret: string | null; key: string | null }> {
    const output = await runTests(await repo(), spec);
    return JSON.parse(output.split('\n').at(-1)!) as {
      names: string[];
      secret: string | null;
      key: string | null;
    };
  }

  it('passes only an allowlist of names that hold no secrets by default, plus the spec env', async () => {
    const seen = await environmentSeen({ ...printEnvironment, env: { FROM_SPEC: '1' } });
    expect(seen.secret).toBeNull();
    expect(seen.key).toBeNull();
    expect(seen.names).toContain('PATH');
    expect(seen.names).toContain('FROM_SPEC');
    expect(seen.names).not.toContain('NODE_ENV');
    const allowed = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LANGUAGE', 'TZ']);
    for (const name of ['TMPDIR', 'TEMP', 'TMP', 'CI', 'NO_COLOR', 'FROM_SPEC']) allowed.add(name);
    expect(seen.names.filter((name) => !allowed.has(name) && !name.startsWith('LC_'))).toEqual([]);
  });

  it('adds the names in inheritEnv, or the whole environment with inheritEnv: true', async () => {
    const named = await environmentSeen({ ...printEnvironment, inheritEnv: [secretName] });
    expect(named).toMatchObject({ secret: secretValue, key: null });
    const all = await environmentSeen({ ...printEnvironment, inheritEnv: true });
    expect(all).toMatchObject({ secret: secretValue, key: 'sk-fake-key-for-a-test' });
    expect(all.names).toContain('NODE_ENV');
  });

  it('refuses a bad inheritEnv when the providers are created, naming it', () => {
    const root = tmpdir();
    const create =
      (inheritEnv: unknown, kind: 'run_tests' | 'lint_check' = 'run_tests') =>
      () =>
        createContextProviders({
          root,
          commands: { [kind]: { command: 'npx', inheritEnv: inheritEnv as CommandSpec['inheritEnv'] } },
        });
    expect(create('yes')).toThrow(InvalidArgumentError);
    expect(create('yes')).toThrow(/Invalid commands\.run_tests\.inheritEnv \("yes"\): must be false/);
    expect(create(['VIRTUAL_ENV', 'A=B'], 'lint_check')).toThrow(
      /Invalid commands\.lint_check\.inheritEnv\[1\] \("A=B"\): must be an environment variable's name/,
    );
    expect(create([''])).toThrow(/inheritEnv\[0\] \(""\)/);
  });

  it('matches names case-insensitively on Windows, as Windows does', () => {
    const environment = commandEnvironment({
      inherited: { all: false, names: ['virtual_env'] },
      hostEnvironment: { Path: 'C:\\bin', SYSTEMROOT: 'C:\\Windows', VIRTUAL_ENV: 'C:\\venv', Api_Key: 'x' },
      platform: 'win32',
    });
    expect(environment).toEqual({ Path: 'C:\\bin', SYSTEMROOT: 'C:\\Windows', VIRTUAL_ENV: 'C:\\venv' });
    const posix = commandEnvironment({
      inherited: { all: false, names: [] },
      hostEnvironment: { Path: '/bin', PATH: '/usr/bin' },
      platform: 'linux',
    });
    expect(posix).toEqual({ PATH: '/usr/bin' });
  });
});
