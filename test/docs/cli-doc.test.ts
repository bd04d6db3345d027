import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../support/built-cli.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const doc = readFileSync(`${root}docs/cli.md`, 'utf8');

interface Transcript {
  readonly line: number;
  readonly command: string;
  readonly expected: string[];
}

/** The ```text blocks of docs/cli.md that start with `$ tool-orchestrator ...`: a command and what it prints. */
function transcripts(): Transcript[] {
  const lines = doc.split('\n');
  const found: Transcript[] = [];
  for (let index = 0; index < lines.length; index++) {
    const fence = /^(\s*)```text\s*$/.exec(lines[index]!);
    if (fence === null) continue;
    const indent = fence[1]!.length;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !lines[end]!.trimStart().startsWith('```'); end++)
      body.push(lines[end]!.slice(indent));
    if (body[0]?.startsWith('$ tool-orchestrator ')) {
      found.push({ line: index + 2, command: body[0].slice(2), expected: body.slice(1) });
    }
    index = end;
  }
  return found;
}

/** Splits a command line as a POSIX shell would, for the quoting the docs use. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  for (const match of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g))
    words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

describe('docs/cli.md matches what the CLI does', () => {
  const all = transcripts();

  it('finds the transcripts (the scan works)', () => {
    expect(all.length).toBeGreaterThanOrEqual(5);
  });

  for (const transcript of all) {
    it(`line ${transcript.line}: ${transcript.command}`, async () => {
      const [, ...args] = shellWords(transcript.command);
      const result = await runBuiltCli(args, { cwd: root });
      const printed = `${result.stdout}${result.stderr}`.replace(/\n$/, '').split('\n');
      const cut = transcript.expected.indexOf('...');
      if (cut === -1) expect(printed).toEqual(transcript.expected);
      else expect(printed.slice(0, cut)).toEqual(transcript.expected.slice(0, cut));
    });
  }

  it('documents every flag of every command', async () => {
    for (const command of ['tool', 'tools', 'explore', 'trace']) {
      const help = await runBuiltCli([command, '--help']);
      for (const [flag] of help.stdout.matchAll(/--[a-z][a-z-]+/g)) {
        expect(doc, `${command} ${flag}`).toContain(flag);
      }
    }
  });
});
