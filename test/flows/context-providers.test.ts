import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContextProviders } from '../../src/flows/context/create-context-providers.js';
import { fulfillContextRequests } from '../../src/flows/context/fulfill-context-requests.js';
import { contextRequestKey, ContextResult } from '../../src/flows/context/context-schemas.js';
import { JsonLinesRunStore } from '../../src/flows/context/providers/json-lines-run-store.js';

/** Every folder a test made; removed after it. */
const folders: string[] = [];

afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'flows-providers-'));
  folders.push(root);
  await writeFile(join(root, 'a.test.js'), 'test');
  return root;
}

/** A "test runner" that prints the arguments it got, so the argv the model influenced is visible. */
const echoArgs = {
  command: process.execPath,
  args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))'],
};

describe('built-in context providers', () => {
  it('run_tests runs the configured command with execFile, adding only checked paths and the marker', async () => {
    const root = await repo();
    const providers = createContextProviders({
      root,
      commands: { run_tests: { ...echoArgs, markerFlag: '-t' } },
    });
    const { results } = await fulfillContextRequests(
      {
        requests: [
          { provider: 'run_tests', params: { path: 'a.test.js', marker: 'adds; rm -rf /' }, reason: 'r' },
          { provider: 'run_tests', params: { path: '../outside' }, reason: 'r' },
          { provider: 'run_tests', params: { path: '--config=evil.js' }, reason: 'r' },
        ],
      },
      { providers },
    );
    const [ok, outside, option] = results;
    expect(ok).toMatchObject({ ok: true });
    // The marker arrives as one argv entry: no shell ever sees it.
    expect(ok?.ok && ok.content).toContain('exit code 0\n["./a.test.js","-t","adds; rm -rf /"]');
    expect(outside).toMatchObject({ ok: false, error: expect.stringContaining('..') });
    expect(option).toMatchObject({ ok: false, error: expect.stringContaining('looks like an option') });
  });

  it('refuses options hidden in a path that resolves to one, or in the marker; normal values pass as one argument', async () => {
    const root = await repo();
    const providers = createContextProviders({
      root,
      commands: { run_tests: { ...echoArgs, markerFlag: '-t' }, lint_check: echoArgs },
    });
    const { results } = await fulfillContextRequests(
      {
        requests: [
          { provider: 'run_tests', params: { path: './--config=/tmp/evil.mjs' }, reason: 'r' },
          { provider: 'run_tests', params: { marker: '--reporter=/tmp/evil.js' }, reason: 'r' },
          { provider: 'lint_check', params: { files: ['a.test.js', 'x/../-rf'] }, reason: 'r' },
          { provider: 'run_tests', params: { path: '.', marker: 'adds - and subtracts' }, reason: 'r' },
          { provider: 'lint_check', params: { files: ['a.test.js'] }, reason: 'r' },
        ],
      },
      { providers },
    );
    const [hiddenPath, optionMarker, hiddenFile, rootPath, lintFile] = results;
    expect(hiddenPath).toMatchObject({
      ok: false,
      error: expect.stringContaining('"--config=/tmp/evil.mjs" looks like an option'),
    });
    expect(optionMarker).toMatchObject({
      ok: false,
      error: expect.stringContaining('marker "--reporter=/tmp/evil.js" starts with "-"'),
    });
    expect(hiddenFile).toMatchObject({
      ok: false,
      error: expect.stringContaining('"-rf" looks like an option'),
    });
    expect(rootPath?.ok && rootPath.content).toContain('exit code 0\n[".","-t","adds - and subtracts"]');
    // Paths go as ./<path>, a form no command reads as an option (vitest, eslint, pytest accept it).
    expect(lintFile?.ok && lintFile.content).toContain('exit code 0\n["./a.test.js"]');
  });

  it('reports a command killed by a signal, or cut off at maxBuffer, as a failure, never as exit code 0', async () => {
    const root = await repo();
    const providers = createContextProviders({
      root,
      commands: {
        run_tests: {
          command: process.execPath,
          args: ['-e', 'console.log("partial output"); process.kill(process.pid, "SIGKILL")'],
        },
        lint_check: {
          command: process.execPath,
          args: ['-e', 'process.stdout.write("x".repeat(17 * 1024 * 1024))'],
        },
      },
    });
    const { results } = await fulfillContextRequests(
      {
        requests: [
          { provider: 'run_tests', params: {}, reason: 'r' },
          { provider: 'lint_check', params: {}, reason: 'r' },
        ],
      },
      { providers },
    );
    const [killed, flooded] = results;
    expect(killed).toMatchObject({ ok: false, error: expect.stringContaining('was killed by SIGKILL') });
    expect(killed).toMatchObject({ error: expect.stringContaining('partial output') });
    expect(flooded).toMatchObject({
      ok: false,
      error: expect.stringContaining('printed more than 16777216 bytes (16 MiB) and was stopped'),
    });
    expect(JSON.stringify(results)).not.toContain('exit code 0');
  });

  it('refuses a marker when no markerFlag is configured, reports exit codes, and caps output', async () => {
    const root = await repo();
    const failing = {
      command: process.execPath,
      args: ['-e', 'process.stdout.write("x".repeat(500)); process.exit(3)'],
      maxOutputChars: 100,
    };
    const providers = createContextProviders({
      root,
      commands: { run_tests: echoArgs, lint_check: failing },
    });
    const { results } = await fulfillContextRequests(
      {
        requests: [
          { provider: 'run_tests', params: { marker: 'x' }, reason: 'r' },
          { provider: 'lint_check', params: { files: ['a.test.js'] }, reason: 'r' },
        ],
      },
      { providers },
    );
    expect(results[0]).toMatchObject({ ok: false, error: expect.stringContaining('takes no marker') });
    expect(results[1]?.ok && results[1].content).toMatch(
      /exit code 3\n\[output cut: first 400 characters left out\]\nx{100}$/,
    );
  });

  it('times a command out', async () => {
    const root = await repo();
    const slow = { command: process.execPath, args: ['-e', 'setTimeout(() => {}, 5000)'], timeoutMs: 100 };
    const providers = createContextProviders({ root, commands: { run_tests: slow } });
    const { results } = await fulfillContextRequests(
      { requests: [{ provider: 'run_tests', params: {}, reason: 'r' }] },
      { providers },
    );
    expect(results[0]).toMatchObject({ ok: false, error: expect.stringContaining('stopped after 100 ms') });
  });

  it('past_runs reads a JSON-lines store newest first, skipping torn lines', async () => {
    const root = await repo();
    const store = new JsonLinesRunStore(join(root, '.agent', 'runs.jsonl'));
    await store.append({ id: '1', timestamp: '2026-01-01T00:00:00Z', task: 'first', outcome: 'success' });
    await store.append({ id: '2', timestamp: '2026-01-02T00:00:00Z', task: 'second', outcome: 'failed' });
    await writeFile(store.path, `${await readFile(store.path, 'utf8')}{"id": "3", "tas`);
    const providers = createContextProviders({ root, runStore: store });
    const { results } = await fulfillContextRequests(
      { requests: [{ provider: 'past_runs', params: { limit: 5 }, reason: 'r' }] },
      { providers },
    );
    const lines = results[0]?.ok
      ? results[0].content.split('\n').map((line) => JSON.parse(line) as { id: string })
      : [];
    expect(lines.map((record) => record.id)).toEqual(['2', '1']);
  });

  it('playbooks match by tag, case-insensitively, and name the known tags on a miss', async () => {
    const root = await repo();
    const providers = createContextProviders({
      root,
      playbooks: [
        { id: 'p1', title: 'Release', tags: ['release'], content: 'Bump, tag, publish.' },
        { id: 'p2', title: 'Testing', tags: ['tests', 'ci'], content: 'Run vitest.' },
      ],
    });
    const { results } = await fulfillContextRequests(
      {
        requests: [
          { provider: 'playbooks', params: { tags: ['CI'] }, reason: 'r' },
          { provider: 'playbooks', params: { tags: ['docs'] }, reason: 'r' },
        ],
      },
      { providers },
    );
    expect(results[0]).toMatchObject({ ok: true, content: '## Testing [tests, ci]\nRun vitest.' });
    expect(results[1]).toMatchObject({
      ok: true,
      content: expect.stringContaining('Known tags: ci, release, tests'),
    });
  });

  it('leaves out unconfigured providers', async () => {
    const names = Object.keys(createContextProviders({ root: await repo() }));
    expect(names.sort()).toEqual([
      'discover_context',
      'git_diff',
      'git_log',
      'import_graph',
      'read_file',
      'repo_map',
      'search_code',
      'symbol_list',
    ]);
  });
});

describe('fulfillContextRequests as a serialisable activity', () => {
  it('takes and returns plain JSON, skips repeats by key, and caps results', async () => {
    const root = await repo();
    await writeFile(join(root, 'big.txt'), 'y'.repeat(5_000));
    const providers = createContextProviders({ root });
    const earlier = { provider: 'read_file', params: { path: 'a.test.js' } };
    const input = JSON.parse(
      JSON.stringify({
        requests: [
          { ...earlier, reason: 'again' },
          { provider: 'search_code', params: { pattern: 'test' }, reason: 'r' },
          { provider: 'search_code', params: { pattern: 'test' }, reason: 'same round' },
          { provider: 'read_file', params: { path: 'big.txt' }, reason: 'r' },
        ],
        fulfilledKeys: [contextRequestKey(earlier)],
        maxResultChars: 1_000,
      }),
    );
    const output = await fulfillContextRequests(input, { providers });
    expect(JSON.parse(JSON.stringify(output))).toEqual(output);
    expect(output.duplicates.map((request) => request.reason)).toEqual(['again', 'same round']);
    expect(output.results).toHaveLength(2);
    expect(output.results.every((result) => ContextResult.safeParse(result).success)).toBe(true);
    expect(output.results[0]).toMatchObject({
      ok: true,
      content: expect.stringContaining('a.test.js:1: test'),
    });
    expect(output.results[1]).toMatchObject({
      ok: true,
      truncated: true,
      content: expect.stringContaining('[truncated:'),
    });
    expect(output.fulfilledKeys).toHaveLength(2);
  });
});
