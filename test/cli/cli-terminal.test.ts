import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunk, completion } from '../adapters/fake-openai-server.js';
import type { FakeResponse } from '../adapters/fake-openai-server.js';
import { builtCli, cleanEnv, runBuiltCli } from '../support/built-cli.js';
import { explorerReport, useExploreFixture } from '../support/explore-fixture.js';
import { ptyUnavailable, screenLines, spawnInPty, visibleText } from '../support/pty.js';

// The terminal items of issue 17 (2, 3, 6) run the built CLI in a pseudo-terminal, as a person would.
const noPty = ptyUnavailable();

const context = useExploreFixture('cli-terminal-');
const report = explorerReport;
const usage = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 };
const terminalEnv = () => cleanEnv({ TERM: 'xterm-256color' });
// eslint-disable-next-line no-control-regex
const colorCode = /\u001b\[\d+(;\d+)*m/;
// eslint-disable-next-line no-control-regex
const anyEscape = /\u001b/;

/** A streamed turn that reasons, then calls read_file on a.ts; `delayMs` before its first token. */
function readTurn(reasoning: string, delayMs = 0): FakeResponse {
  return {
    type: 'sse',
    items: [
      { delayMs },
      chunk({ role: 'assistant', reasoning_content: reasoning }),
      chunk({
        tool_calls: [
          {
            index: 0,
            id: 'call_1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
          },
        ],
      }),
      chunk({}, { finish_reason: 'tool_calls', usage }),
    ],
  };
}

/** A streamed answer with `content`, after some reasoning. */
function answerTurn(reasoning: string, content: string): FakeResponse {
  return {
    type: 'sse',
    items: [
      chunk({ role: 'assistant', reasoning_content: reasoning }),
      chunk({ content }),
      chunk({}, { finish_reason: 'stop', usage }),
    ],
  };
}

function explore(args: readonly string[] = []): string[] {
  return [
    process.execPath,
    builtCli,
    'explore',
    'What is a?',
    '--repo',
    context.repo,
    '--base-url',
    context.server.baseURL,
    '--model',
    'local-model',
    ...args,
  ];
}

describe.skipIf(noPty !== undefined)('explore progress on a terminal (issue 17 item 3)', () => {
  it('a header, elapsed time while waiting, thinking under its turn, a labelled repair call, lines within the width', async () => {
    const longThought =
      'The answer is in a.ts, so reading that one file settles it; ' +
      'nothing else in this small repository matters for the question. '.repeat(3);
    context.server.enqueue(
      readTurn(longThought, 1500),
      answerTurn('Now I write the report.', '{"not": "a report"}'),
      { type: 'json', body: completion({ content: JSON.stringify(report) }, { usage }) },
    );
    const pty = spawnInPty(explore(), { env: terminalEnv(), columns: 60 });
    // While the model sends nothing, the elapsed time moves.
    await pty.waitFor(/turn 1: waiting for the model \d+ms/);
    await pty.waitFor(/turn 1: waiting for the model 1\.\ds/);
    expect(await pty.exited).toBe(0);
    const lines = screenLines(pty.output());
    const at = (pattern: RegExp): number => lines.findIndex((line) => pattern.test(line));
    expect(lines[0]).toBe(`exploring ${context.repo}`);
    expect(lines).toContain('  model local-model (openai)');
    expect(lines).toContain(`  endpoint ${context.server.baseURL}`);
    expect(lines).toContain('  depth normal: up to 10 turns; Ctrl-C stops');
    // Each call's line comes before its reasoning, which comes before how long the call took.
    const turn1 = at(/^turn 1$/);
    const thinking1 = at(/^ {2}thinking: The answer is in a\.ts/);
    const answered1 = at(/^ {2}answered in .*, first token after 1\.\ds, 60 tokens, 1 to/);
    const read = at(/^ {2}read_file\(\{"path":"a\.ts"\}\) \d+ms -> /);
    const turn2 = at(/^turn 2$/);
    const thinking2 = at(/^ {2}thinking: Now I write the report\.$/);
    const repair = at(/^repair call \(the report did not match its schema\)$/);
    const done = at(/^done: 2 turns and 1 repair call, 180 tokens, \d+\.\ds$/);
    expect(
      [turn1, thinking1, answered1, read, turn2, thinking2, repair, done].every((index) => index >= 0),
      lines.join('\n'),
    ).toBe(true);
    expect(turn1 < thinking1 && thinking1 < answered1 && answered1 < read && read < turn2).toBe(true);
    expect(turn2 < thinking2 && thinking2 < repair && repair < done).toBe(true);
    // The long reasoning is wrapped, not left to the terminal: continuation lines line up under it.
    expect(lines[thinking1 + 1]).toMatch(/^ {12}\S/);
    for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(60);
    // The report itself is on stdout, after the progress.
    expect(JSON.parse(lines.slice(done + 1).join('\n'))).toEqual(report);
  });

  it('says "1 turn", not "1 turns"', async () => {
    context.server.enqueue(answerTurn('Easy.', JSON.stringify(report)));
    const pty = spawnInPty(explore(['--max-turns', '1']), { env: terminalEnv() });
    expect(await pty.exited).toBe(0);
    const lines = screenLines(pty.output());
    expect(lines).toContain('  depth normal: up to 1 turn; Ctrl-C stops');
    expect(
      lines.some((line) => /^done: 1 turn, 60 tokens, /.test(line)),
      lines.join('\n'),
    ).toBe(true);
    expect(visibleText(pty.output())).not.toContain('1 turns');
  });
});

describe.skipIf(noPty !== undefined)('Ctrl-C during explore (issue 17 item 2)', () => {
  it('stops cleanly: what was found so far, the trace closed with run_end, exit 130', async () => {
    const tracePath = join(context.repo, 'interrupted.jsonl');
    context.server.enqueue(readTurn('Read it first.'), { type: 'sse', items: [{ delayMs: 60_000 }] });
    const pty = spawnInPty(explore(['--trace', tracePath]), { env: terminalEnv() });
    await pty.waitFor(/turn 2: waiting for the model/);
    pty.write('\u0003');
    expect(await pty.exited).toBe(130);
    const text = visibleText(pty.output());
    expect(text).toContain('stopping after Ctrl-C; press it again to quit at once');
    expect(text).toContain(
      'tool-orchestrator explore: interrupted (Ctrl-C) after 1 turn, before the explorer wrote its report.',
    );
    expect(text).toContain('What it looked at so far:\n  read_file({"path":"a.ts"}) -> ');
    expect(text).toContain(`Trace: ${tracePath} (complete: it ends with run_end)`);
    const events = (await readFile(tracePath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; data: { stopReason?: string } });
    expect(events.at(-1)).toMatchObject({ type: 'run_end', data: { stopReason: 'aborted' } });
  });

  it('with --json the interruption is the error object on stdout', async () => {
    const out = join(context.repo, 'interrupted.json');
    // Under --json the requests are not streamed.
    context.server.enqueue(
      {
        type: 'json',
        body: completion(
          {
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a.ts"}' },
              },
            ],
          },
          { finish_reason: 'tool_calls', usage },
        ),
      },
      { type: 'json', delayMs: 60_000, body: completion({ content: '{}' }) },
    );
    const pty = spawnInPty(explore(['--json']), { env: terminalEnv(), redirect: `> '${out}'` });
    // Nothing reaches the terminal under --json, so wait on the server: the second call has started.
    await waitUntil(() => context.server.requests.length === 2);
    pty.write('\u0003');
    expect(await pty.exited).toBe(130);
    const printed = JSON.parse(await readFile(out, 'utf8')) as {
      error: { code: string; turns: number; toolCalls: { name: string; arguments: string }[]; trace: null };
    };
    expect(printed.error).toMatchObject({ code: 'interrupted', turns: 1, trace: null });
    expect(printed.error.toolCalls).toEqual([
      expect.objectContaining({ name: 'read_file', arguments: '{"path":"a.ts"}' }),
    ]);
  });

  it('a second Ctrl-C exits at once when the clean stop hangs', { timeout: 60_000 }, async () => {
    // The trace goes to a pipe nobody reads: once it is full, closing the trace waits forever.
    const fifo = join(context.repo, 'stuck.fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = await open(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      context.server.enqueue(readTurn('x'.repeat(300_000)), { type: 'sse', items: [{ delayMs: 60_000 }] });
      const pty = spawnInPty(explore(['--trace', fifo]), { env: terminalEnv() });
      await pty.waitFor(/turn 2: waiting for the model/);
      pty.write('\u0003');
      await pty.waitFor('stopping after Ctrl-C');
      // The clean stop cannot finish: no summary, still running.
      const stillRunning = await Promise.race([pty.exited.then(() => false), sleep(1000).then(() => true)]);
      expect(stillRunning).toBe(true);
      expect(visibleText(pty.output())).not.toContain('interrupted (Ctrl-C)');
      pty.write('\u0003');
      expect(await pty.exited).toBe(130);
    } finally {
      await reader.close();
    }
  });
});

describe('colors follow NO_COLOR, FORCE_COLOR and the terminal (issue 17 item 6)', () => {
  it.skipIf(noPty !== undefined)(
    'on a terminal: colors by default, none with NO_COLOR or FORCE_COLOR=0',
    async () => {
      const run = async (env: Record<string, string | undefined>) => {
        const pty = spawnInPty([process.execPath, builtCli, 'tools', '--repo', context.repo, '--nope'], {
          env,
        });
        await pty.exited;
        const listing = spawnInPty([process.execPath, builtCli, 'tools', '--repo', context.repo], { env });
        await listing.exited;
        return pty.output() + listing.output();
      };
      expect(await run(terminalEnv())).toMatch(colorCode);
      expect(await run({ ...terminalEnv(), NO_COLOR: '1' })).not.toMatch(anyEscape);
      expect(await run({ ...terminalEnv(), FORCE_COLOR: '0' })).not.toMatch(anyEscape);
    },
  );

  it('through a pipe: no escape codes, unless FORCE_COLOR', async () => {
    const plain = await runBuiltCli(['tools', '--repo', context.repo], { env: { TERM: 'xterm-256color' } });
    expect(plain.stdout).toContain('read_file');
    expect(plain.stdout).not.toMatch(anyEscape);
    const usage = await runBuiltCli(['tools', '--nope'], { env: { TERM: 'xterm-256color' } });
    expect(usage.stderr).not.toMatch(anyEscape);
    const forced = await runBuiltCli(['tools', '--repo', context.repo], { env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toMatch(colorCode);
  });

  it.skipIf(noPty !== undefined)(
    'stdout redirected from a terminal gets no escape codes; stderr still shows progress',
    async () => {
      const out = join(context.repo, 'report.json');
      context.server.enqueue(answerTurn('Easy.', JSON.stringify(report)));
      const pty = spawnInPty(explore(), { env: terminalEnv(), redirect: `> '${out}'` });
      expect(await pty.exited).toBe(0);
      expect(pty.output()).toMatch(colorCode);
      expect(visibleText(pty.output())).toContain('done: 1 turn');
      const written = await readFile(out, 'utf8');
      expect(written).not.toMatch(anyEscape);
      expect(JSON.parse(written)).toEqual(report);
    },
  );
});

function sleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}

async function waitUntil(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}
