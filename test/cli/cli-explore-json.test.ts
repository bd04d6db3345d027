import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion } from '../adapters/fake-openai-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { explorerReport, useExploreFixture } from '../support/explore-fixture.js';

const context = useExploreFixture('cli-json-');

interface JsonFailure {
  readonly error: { readonly code: string; readonly message: string };
}

/** Runs `explore --json` and checks the failure contract: one JSON object on stdout, nothing on stderr. */
async function failure(args: readonly string[], env: Record<string, string> = {}) {
  const result = await runBuiltCli(['explore', 'What is a?', '--json', ...args], { env });
  expect(result.stderr).toBe('');
  expect(result.stdout.trim().split('\n')).toHaveLength(1);
  const printed = JSON.parse(result.stdout) as JsonFailure;
  expect(Object.keys(printed)).toEqual(['error']);
  expect(typeof printed.error.message).toBe('string');
  return { code: result.code, error: printed.error };
}

describe('explore --json failures are a JSON object on stdout (issue 17 item 10)', () => {
  it('usage errors: a bad flag value, an unknown flag, a missing key, an unwritable trace', async () => {
    const repo = await failure([
      '--repo',
      '/nonexistent',
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
    ]);
    expect(repo.code).toBe(2);
    expect(repo.error.code).toBe('invalid_flag_value');
    expect(repo.error.message).toContain('--repo "/nonexistent" does not exist');
    const flag = await failure(['--repo', context.repo, '--verbose']);
    expect(flag).toMatchObject({ code: 2, error: { code: 'unknown_flag' } });
    const key = await failure(['--repo', context.repo]);
    expect(key).toMatchObject({ code: 2, error: { code: 'missing_api_key' } });
    const trace = await failure([
      '--repo',
      context.repo,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
      '--trace',
      join(context.repo, 'missing-folder', 'trace.jsonl'),
    ]);
    expect(trace).toMatchObject({ code: 2, error: { code: 'trace_file' } });
    expect(context.server.requests).toHaveLength(0);
  });

  it('a failed run: a report that stays invalid after the repair call', async () => {
    context.server.enqueue(
      { type: 'json', body: completion({ content: 'not json at all' }) },
      { type: 'json', body: completion({ content: '{"still": "wrong"}' }) },
    );
    const result = await failure([
      '--repo',
      context.repo,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
    ]);
    expect(result.code).toBe(1);
    expect(result.error.code).toBe('structured_output_invalid');
    expect(context.server.requests).toHaveLength(2);
  });

  it('a provider error keeps its code', async () => {
    context.server.enqueue({
      type: 'json',
      status: 401,
      body: {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const result = await failure([
      '--repo',
      context.repo,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
    ]);
    expect(result.code).toBe(1);
    expect(result.error.code).toBe('authentication');
    expect(result.error.message).toContain('Incorrect API key provided');
  });
});

describe('--trace (issue 17 items 1 and 12)', () => {
  it('a path that cannot be written exits 2 before any model call, with the reason', async () => {
    const cases = [
      [join(context.repo, 'missing-folder', 'trace.jsonl'), 'no such file or folder'],
      [context.repo, 'it is a folder'],
      [join(context.repo, 'a.ts', 'trace.jsonl'), 'a part of the path is a file, not a folder'],
    ] as const;
    for (const [path, reason] of cases) {
      const result = await runBuiltCli([
        'explore',
        'What is a?',
        '--repo',
        context.repo,
        '--base-url',
        context.server.baseURL,
        '--model',
        'm',
        '--trace',
        path,
      ]);
      expect(result.code, path).toBe(2);
      expect(result.stderr).toContain(`cannot write --trace file ${path}: ${reason}`);
      expect(result.stderr).not.toMatch(/Unhandled|at .*\.js:\d+/);
    }
    expect(context.server.requests).toHaveLength(0);
  });

  it('writes timestamps in whole milliseconds, durations in full resolution', async () => {
    const directory = join(context.repo, 'traces');
    await mkdir(directory, { recursive: true });
    const tracePath = join(directory, 'run.jsonl');
    context.server.enqueue({ type: 'json', body: completion({ content: JSON.stringify(explorerReport) }) });
    const result = await runBuiltCli([
      'explore',
      'What is a?',
      '--repo',
      context.repo,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
      '--trace',
      tracePath,
    ]);
    expect(result.code, result.stderr).toBe(0);
    const events = (await readFile(tracePath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; timestamp: number; data: { durationMs?: number } });
    expect(events.map((event) => event.type)).toEqual(['run_start', 'llm_call', 'run_end']);
    for (const event of events) expect(Number.isInteger(event.timestamp), event.type).toBe(true);
    expect(typeof events[1]?.data.durationMs).toBe('number');
  });
});

describe('--record and --replay', () => {
  it('records a session to a cassette, then replays it offline with no key, printing the same report', async () => {
    const cassette = join(context.repo, 'cassettes', 'explore.jsonl');
    context.server.enqueue({ type: 'json', body: completion({ content: JSON.stringify(explorerReport) }) });
    const base = ['explore', 'What is a?', '--repo', context.repo, '--json'];
    const recorded = await runBuiltCli([
      ...base,
      '--base-url',
      context.server.baseURL,
      '--model',
      'm',
      '--record',
      cassette,
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const requests = context.server.requests.length;
    const replayed = await runBuiltCli([...base, '--replay', cassette], {
      env: { OPENAI_API_KEY: '', DEEPSEEK_API_KEY: '' },
    });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(context.server.requests).toHaveLength(requests);
    const lines = (await readFile(cassette, 'utf8')).trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'cassette', adapter: { model: 'm' } });
    expect(lines).toHaveLength(2);
  });

  it('refuses both at once, and names a cassette that is not there', async () => {
    const both = await failure(['--repo', context.repo, '--record', 'a.jsonl', '--replay', 'b.jsonl']);
    expect(both).toMatchObject({ code: 2, error: { code: 'invalid_flag_value' } });
    const missing = await runBuiltCli([
      'explore',
      'What is a?',
      '--repo',
      context.repo,
      '--json',
      '--replay',
      join(context.repo, 'nope.jsonl'),
    ]);
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toContain('record the cassette first');
  });
});
