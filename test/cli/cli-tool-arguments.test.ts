import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';

let fixture: string;

beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'cli-tool-args-'));
  await writeFile(join(fixture, 'a.ts'), 'export const a = 1;\nexport const b = 2;\n');
});
afterAll(async () => {
  await rm(fixture, { recursive: true, force: true });
});

/** What a person should see for bad arguments: the problem, the tool's parameters, an example. */
function expectPersonMessage(stderr: string): void {
  expect(stderr).toContain('Parameters of read_file:');
  expect(stderr).toMatch(/^ {2}path: string \(required\) - File to read/m);
  expect(stderr).toMatch(/^ {2}start_line: integer \(optional\)/m);
  expect(stderr).toContain(`Example:\n  tool-orchestrator tool read_file '{"path":"src/index.ts"}' --repo .`);
  // Not the text written for the model.
  expect(stderr).not.toContain('Send one complete JSON object');
  expect(stderr).not.toContain('call it again');
}

describe('tool with bad arguments speaks to a person (issue 17 item 5)', () => {
  it('a value of the wrong type: what is wrong, the parameters, an example; exit 2', async () => {
    const result = await runBuiltCli(['tool', 'read_file', '{"path": 5}', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("the arguments do not fit read_file's parameters:\n  path: ");
    expect(result.stderr).toMatch(/path: .*expected string/i);
    expectPersonMessage(result.stderr);
  });

  it('a missing required parameter', async () => {
    const result = await runBuiltCli(['tool', 'read_file', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('  path: missing; it is required');
    expectPersonMessage(result.stderr);
  });

  it('arguments that are not JSON say how to quote them', async () => {
    const result = await runBuiltCli(['tool', 'read_file', '{path:a.ts}', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the arguments "{path:a.ts}" are not valid JSON');
    expect(result.stderr).toContain('Put them in single quotes');
    expectPersonMessage(result.stderr);
  });

  it('an unknown key is an error, with a guess, not silently ignored', async () => {
    const result = await runBuiltCli(['tool', 'read_file', '{"path":"a.ts","end_lin":1}', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('read_file has no parameter "end_lin". Did you mean "end_line"?');
    expectPersonMessage(result.stderr);
  });

  it('good arguments still run the tool', async () => {
    const result = await runBuiltCli([
      'tool',
      'read_file',
      '{"path":"a.ts","end_line":1}',
      '--repo',
      fixture,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('export const a = 1;');
    expect(result.stdout).not.toContain('export const b');
  });

  it('with --json, bad arguments are the error object on stdout', async () => {
    const result = await runBuiltCli(['tool', 'read_file', '{"paht":"a.ts"}', '--repo', fixture, '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('');
    const printed = JSON.parse(result.stdout) as { error: { code: string; message: string } };
    expect(printed.error.code).toBe('invalid_argument');
    expect(printed.error.message).toContain('read_file has no parameter "paht"');
  });
});
