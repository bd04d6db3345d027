import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl } from '../../src/trace.js';
import { runBuiltCli } from '../support/built-cli.js';
import { recordExploration } from '../support/recorded-exploration.js';
import { until } from '../support/until.js';

let directory: string;
let tracePath: string;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'trace-command-'));
  tracePath = join(directory, 'explore.jsonl');
  const recorded = await recordExploration(tracePath);
  if (recorded.code !== 0) throw new Error(`explore failed: ${recorded.stderr}`);
}, 60_000);

afterAll(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('tool-orchestrator trace view', () => {
  it('renders the trace explore --trace wrote into one HTML page beside it', async () => {
    const events = await readJsonl(tracePath);
    expect(events.filter((event) => event.type === 'tool_result').map((event) => event.data.name)).toEqual([
      'grep_repo',
      'grep_repo',
      'read_file',
    ]);
    const result = await runBuiltCli(['trace', 'view', tracePath]);
    expect(result.code).toBe(0);
    const output = join(directory, 'explore.html');
    expect(result.stdout).toBe(`${output}\n`);
    expect(result.stderr).toContain(`${events.length} events`);
    const html = await readFile(output, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('How does the orchestrator run tool calls in parallel?');
    expect(html).toContain('executeToolCalls');
  });

  it('writes where -o says, with the given title', async () => {
    const output = join(directory, 'custom.html');
    const result = await runBuiltCli(['trace', 'view', tracePath, '-o', output, '--title', 'My exploration']);
    expect(result.code).toBe(0);
    expect(await readFile(output, 'utf8')).toContain('<title>My exploration</title>');
  });

  it('opens the page with $BROWSER when asked', async () => {
    const opener = join(directory, 'opener.sh');
    const seen = join(directory, 'opened.txt');
    await writeFile(opener, `#!/bin/sh\nprintf '%s' "$1" > '${seen}'\n`);
    await chmod(opener, 0o755);
    const output = join(directory, 'opened.html');
    const result = await runBuiltCli(['trace', 'view', tracePath, '-o', output, '--open'], {
      env: { BROWSER: opener },
    });
    expect(result.code).toBe(0);
    await until(() => existsSync(seen));
    expect(await readFile(seen, 'utf8')).toBe(output);
  });

  it('still writes the page, and says what to do, when no browser starts', async () => {
    const output = join(directory, 'unopened.html');
    const result = await runBuiltCli(['trace', 'view', tracePath, '-o', output, '--open'], {
      env: { BROWSER: join(directory, 'no-such-browser') },
    });
    expect(result.code).toBe(0);
    expect(existsSync(output)).toBe(true);
    expect(result.stderr).toContain('could not start');
    expect(result.stderr).toContain(`open ${output} in a browser`);
  });

  it('fails with the file named when the trace cannot be read', async () => {
    const missing = join(directory, 'missing.jsonl');
    const result = await runBuiltCli(['trace', 'view', missing]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TraceFileError (trace_read_failed)');
    expect(result.stderr).toContain(missing);
    const bad = join(directory, 'bad.jsonl');
    await writeFile(bad, 'not json\n{"type":"warning"}\n');
    const invalid = await runBuiltCli(['trace', 'view', bad]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('Line 1 of');
  });

  it('exits 2 for usage mistakes, naming what to do', async () => {
    const bare = await runBuiltCli(['trace']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('missing what to do: tool-orchestrator trace view RUN.jsonl');
    expect(bare.stderr).toContain('see tool-orchestrator trace --help');
    const unknown = await runBuiltCli(['trace', 'show', tracePath]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown trace command "show"');
    const noFile = await runBuiltCli(['trace', 'view']);
    expect(noFile.code).toBe(2);
    expect(noFile.stderr).toContain('missing the trace file');
    const flag = await runBuiltCli(['trace', 'view', tracePath, '--opne']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown flag --opne for "trace view"');
    const overwrite = await runBuiltCli(['trace', 'view', tracePath, '-o', tracePath]);
    expect(overwrite.code).toBe(2);
    expect(overwrite.stderr).toContain('is the trace file itself');
    const help = await runBuiltCli(['--help']);
    expect(help.stdout).toMatch(
      /tool-orchestrator trace view RUN\.jsonl\s+render a JSONL trace as one HTML page/,
    );
    const commandHelp = await runBuiltCli(['help', 'trace']);
    expect(commandHelp.code).toBe(0);
    expect(commandHelp.stdout).toContain(
      'Usage: tool-orchestrator trace view RUN.jsonl [-o RUN.html] [--open]',
    );
  });
});
