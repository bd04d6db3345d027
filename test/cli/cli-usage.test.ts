import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import type { FakeOpenAIServer } from '../adapters/fake-openai-server.js';
import { runBuiltCli } from '../support/built-cli.js';

let fixture: string;
let server: FakeOpenAIServer;

beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'cli-usage-'));
  await writeFile(join(fixture, 'a.ts'), 'export const a = 1;\n');
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
  await rm(fixture, { recursive: true, force: true });
});

/** A model setup that would reach the fake server, so only the flag under test can fail. */
const model = () => ['--base-url', server.baseURL, '--model', 'local-model'];

describe('bad flag values exit 2, naming the flag, the value and the fix (issue 17 item 4)', () => {
  it('--repo that does not exist, on explore, tool and tools', async () => {
    for (const args of [
      ['explore', 'How?', '--repo', '/nonexistent', ...model()],
      ['tool', 'list_files', '--repo', '/nonexistent'],
      ['tools', '--repo', '/nonexistent'],
    ]) {
      const result = await runBuiltCli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain('--repo "/nonexistent" does not exist');
      expect(result.stderr).toContain('e.g. --repo .');
      expect(result.stderr).not.toMatch(/Error\b|at .*\.js:\d+/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('--repo that is a file', async () => {
    const result = await runBuiltCli(['tool', 'list_files', '--repo', join(fixture, 'a.ts')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is a file. Pass the folder that holds the repository');
  });

  it('--base-url without a scheme suggests the http:// form; a variable with one is named', async () => {
    const flag = await runBuiltCli([
      'explore',
      'How?',
      '--repo',
      fixture,
      '--base-url',
      '127.0.0.1:8787',
      '--model',
      'm',
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain(
      '--base-url "127.0.0.1:8787" is not an http:// or https:// URL. Did you mean --base-url http://127.0.0.1:8787?',
    );
    expect(flag.stderr).not.toContain('Invalid URL');
    // `localhost:8787` parses as a URL whose scheme is `localhost:`.
    const scheme = await runBuiltCli([
      'explore',
      'How?',
      '--repo',
      fixture,
      '--base-url',
      'localhost:8787',
      '--model',
      'm',
    ]);
    expect(scheme.code).toBe(2);
    expect(scheme.stderr).toContain('Did you mean --base-url http://localhost:8787?');
    const variable = await runBuiltCli(['explore', 'How?', '--repo', fixture, '--model', 'm'], {
      env: { OPENAI_BASE_URL: '127.0.0.1:8787' },
    });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('OPENAI_BASE_URL "127.0.0.1:8787" is not an http:// or https:// URL');
    expect(variable.stderr).toContain('OPENAI_BASE_URL=http://127.0.0.1:8787');
  });

  it('--max-turns, --depth and --provider', async () => {
    const turns = await runBuiltCli([
      'explore',
      'How?',
      '--repo',
      fixture,
      '--max-turns',
      'lots',
      ...model(),
    ]);
    expect(turns.code).toBe(2);
    expect(turns.stderr).toContain(
      '--max-turns "lots" must be a whole number of at least 1, e.g. --max-turns 10.',
    );
    const zero = await runBuiltCli(['explore', 'How?', '--repo', fixture, '--max-turns=0', ...model()]);
    expect(zero.stderr).toContain('--max-turns "0" must be a whole number');
    const depth = await runBuiltCli([
      'explore',
      'How?',
      '--repo',
      fixture,
      '--depth',
      'bottomless',
      ...model(),
    ]);
    expect(depth.code).toBe(2);
    expect(depth.stderr).toContain(
      '--depth "bottomless" must be shallow, normal or deep, e.g. --depth shallow.',
    );
    const provider = await runBuiltCli([
      'explore',
      'How?',
      '--repo',
      fixture,
      '--provider',
      'anthropic',
      ...model(),
    ]);
    expect(provider.code).toBe(2);
    expect(provider.stderr).toContain('--provider "anthropic" must be deepseek or openai');
    expect(server.requests).toHaveLength(0);
  });
});

describe('unknown flags (issue 17 item 11)', () => {
  it('say which flag, for which command, and where the help is', async () => {
    const result = await runBuiltCli(['tool', 'list_files', '--verbose', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'tool-orchestrator: unknown flag --verbose for "tool"; see tool-orchestrator tool --help\n',
    );
    const explore = await runBuiltCli(['explore', 'How?', '-x']);
    expect(explore.stderr).toBe(
      'tool-orchestrator: unknown flag -x for "explore"; see tool-orchestrator explore --help\n',
    );
    const top = await runBuiltCli(['--verbose']);
    expect(top.code).toBe(2);
    expect(top.stderr).toBe('tool-orchestrator: unknown flag --verbose; see tool-orchestrator --help\n');
  });

  it('a flag without its value names the value it needs', async () => {
    const missing = await runBuiltCli(['tool', 'list_files', '--repo']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      'tool-orchestrator: flag --repo for "tool" needs a value, e.g. --repo DIR; see tool-orchestrator tool --help\n',
    );
    const swallowed = await runBuiltCli(['explore', 'How?', '--repo', '--depth', 'deep']);
    expect(swallowed.stderr).toContain('needs a value, e.g. --repo DIR (got the flag --depth instead)');
    const valued = await runBuiltCli(['tools', '--json=yes']);
    expect(valued.stderr).toContain('flag --json for "tools" takes no value (got --json=yes)');
  });
});

describe('--version and help (issue 17 item 7)', () => {
  it('--version prints the package version', async () => {
    const packageJson = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    const result = await runBuiltCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`tool-orchestrator ${packageJson.version}\n`);
  });

  it('help <command> prints that command help, the same as <command> --help', async () => {
    for (const command of ['tool', 'tools', 'explore']) {
      const help = await runBuiltCli(['help', command]);
      const flag = await runBuiltCli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: tool-orchestrator ${command} `));
      expect(help.stdout).toBe(flag.stdout);
    }
    const unknown = await runBuiltCli(['help', 'frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no help for "frobnicate": not a command');
  });

  it('the top-level help lists every command, --version and the exit codes', async () => {
    const result = await runBuiltCli(['--help']);
    expect(result.code).toBe(0);
    for (const text of [
      'tool <name>',
      'tools --repo DIR',
      'explore "<question>"',
      '--version',
      '130 Ctrl-C',
    ]) {
      expect(result.stdout).toContain(text);
    }
    const bare = await runBuiltCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage:');
  });
});
