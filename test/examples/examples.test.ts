import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFakeAnthropicServer } from '../adapters/anthropic/fake-anthropic-server.js';
import { startFakeGeminiServer } from '../adapters/gemini/fake-gemini-server.js';
import { chunk, startFakeOpenAIServer } from '../adapters/fake-openai-server.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');

function runExample(
  name: string,
  args: readonly string[] = [],
  extraEnv: Record<string, string> = {},
  cwd: string = root,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    DEEPSEEK_API_KEY: '',
    OPENAI_API_KEY: '',
    OPENAI_BASE_URL: '',
    ANTHROPIC_API_KEY: '',
    ANTHROPIC_BASE_URL: '',
    GEMINI_API_KEY: '',
    GEMINI_BASE_URL: '',
    GOOGLE_API_KEY: '',
    ...extraEnv,
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [tsx, join(root, 'examples', `${name}.ts`), ...args],
      { cwd, env, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
          stdout,
          stderr,
        });
      },
    );
  });
}

describe('examples run as written', () => {
  it('quickstart prints exactly what the README promises', async () => {
    const readme = await readFile(join(root, 'README.md'), 'utf8');
    const promised = /`npx tsx examples\/quickstart\.ts` prints:\n\n```text\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(promised, 'the README shows the quickstart output in a text block').toBeDefined();
    const result = await runExample('quickstart');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(promised);
  });

  it('custom-tool', async () => {
    const result = await runExample('custom-tool');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('known items: apple, pear');
    expect(result.stdout).toContain('not valid JSON');
    expect(result.stdout).toContain('answer: We have 12 apples. (final, 3 turns)');
  });

  it('agent-approvals: an approval inside an agent tool pauses the lead run; resume finishes both', async () => {
    const result = await runExample('agent-approvals');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'awaiting_approval: outer_1/inner_1 delete_files {"pattern":"*.log"} in clean (run cleanup/outer_1)',
        'lead: cleaner: deleted *.log (final)',
        '',
      ].join('\n'),
    );
  });

  it('handoffs: triage hands to billing and back, each model with its own instructions and tools', async () => {
    const result = await runExample('handoffs');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'triage model: system "You route customers to the right desk.", 2 messages, tools transfer_to_billing',
        'handoff: triage -> billing',
        'billing model: system "You answer billing questions.", 2 messages, tools lookup_invoice, transfer_to_triage',
        'handoff: billing -> triage',
        'triage model: system "You route customers to the right desk.", 6 messages, tools transfer_to_billing',
        'triage answered: Invoice 1042 was paid: 120 USD. Anything else? (final after 4 turns)',
        '',
      ].join('\n'),
    );
  });

  it('typed-output: a typed final output, repaired once', async () => {
    const result = await runExample('typed-output');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'the model was told: {"error":"The arguments do not match the schema of final_answer:\\n- advice: Invalid input: expected string, received undefined\\nCall final_answer again with corrected arguments."}',
        'Paris: 21 °C. Leave the umbrella at home.',
        '(final after 3 turns)',
        '',
      ].join('\n'),
    );
  });

  it('approval-server: a run pauses over HTTP and a second request approves and finishes it', async () => {
    const result = await runExample('approval-server');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'started: awaiting_approval, waiting: refund {"orderId":"B-2","amount":400}',
        'refunds so far: A-1:20:call_small',
        'resumed: final: Done: {"refunded":20} / {"refunded":400}',
        'refunds: A-1:20:call_small, B-2:400:call_large',
        '',
      ].join('\n'),
    );
    // docs/approvals.md shows this example as it is.
    const docs = await readFile(join(root, 'docs', 'approvals.md'), 'utf8');
    const example = await readFile(join(root, 'examples', 'approval-server.ts'), 'utf8');
    expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it('stream-traces with no argument leaves nothing in the folder it runs from', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'stream-traces-cwd-'));
    try {
      const result = await runExample('stream-traces', [], {}, directory);
      expect(result.code).toBe(0);
      expect(await readdir(directory)).toEqual([]);
      const written = /trace written to (.+)$/m.exec(result.stdout)?.[1];
      expect(written).toBeDefined();
      expect((await readFile(written!, 'utf8')).trim().split('\n').length).toBeGreaterThan(3);
      await rm(written!, { force: true });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('stream-traces writes a JSONL trace and a live summary', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'stream-traces-'));
    try {
      const path = join(directory, 'trace.jsonl');
      const result = await runExample('stream-traces', [path]);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('[done: final after 2 turns]');
      const events = (await readFile(path, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string });
      expect(events[0]?.type).toBe('run_start');
      expect(events.at(-1)?.type).toBe('run_end');
      expect(events.some((event) => event.type === 'content_delta')).toBe(true);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  for (const name of ['openai', 'deepseek', 'anthropic', 'gemini', 'explore-axios']) {
    it(`${name} fails clearly without a key`, async () => {
      if (!existsSync(join(root, 'examples', `${name}.ts`)))
        throw new Error(`examples/${name}.ts is missing`);
      const result = await runExample(name);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/(OPENAI|DEEPSEEK|ANTHROPIC|GEMINI)_API_KEY/);
    });
  }

  it('anthropic runs against a local Messages API server, thinking sent back with the tool result', async () => {
    const server = await startFakeAnthropicServer();
    server.enqueue(
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'Multiply with the tool.' },
          { type: 'tool_use', name: 'multiply', input: { a: 17, b: 23 } },
        ],
      },
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'The tool said 391.' },
          { type: 'text', text: '17 * 23 = 391' },
        ],
      },
    );
    try {
      const result = await runExample('anthropic', [], {
        ANTHROPIC_API_KEY: 'sk-ant-local',
        ANTHROPIC_BASE_URL: server.baseURL,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('17 * 23 = 391');
      expect(result.stdout).toMatch(
        /\[final\] 2 turns, \d+ tokens \(\d+ of \d+ prompt tokens read from cache\)/,
      );
      // The thinking streamed to stderr; the server refused nothing (it checks the thinking block came back intact).
      expect(result.stderr).toContain('Multiply with the tool.');
      expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
      const second = server.requests[1]!.body as {
        messages: { role: string; content: { type: string }[] }[];
      };
      expect(second.messages.map((message) => message.content.map((block) => block.type))).toEqual([
        ['text'],
        ['thinking', 'tool_use'],
        ['tool_result'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('gemini runs against a local Gemini API server, signatures sent back with the tool result', async () => {
    const server = await startFakeGeminiServer();
    server.enqueue(
      {
        type: 'turn',
        parts: [
          { type: 'thought', text: 'Multiply with the tool.' },
          { type: 'call', name: 'multiply', args: { a: 17, b: 23 } },
        ],
      },
      {
        type: 'turn',
        parts: [
          { type: 'thought', text: 'The tool said 391.' },
          { type: 'text', text: '17 * 23 = 391', signed: true },
        ],
      },
    );
    try {
      const result = await runExample('gemini', [], {
        GEMINI_API_KEY: 'AIza-local',
        GEMINI_BASE_URL: server.baseURL,
      });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('17 * 23 = 391');
      expect(result.stdout).toMatch(
        /\[final\] 2 turns, \d+ tokens \(\d+ of \d+ completion tokens were thoughts\)/,
      );
      // The thoughts streamed to stderr; the server refused nothing (it checks the call's signature came back on its part).
      expect(result.stderr).toContain('Multiply with the tool.');
      expect(server.requests.map((request) => request.status)).toEqual([200, 200]);
      const second = server.requests[1]!.body as {
        contents: { role: string; parts: Record<string, unknown>[] }[];
      };
      expect(
        second.contents.map((content) => content.parts.map((part) => Object.keys(part).sort().join('+'))),
      ).toEqual([['text'], ['text+thought', 'functionCall+thoughtSignature'], ['functionResponse']]);
    } finally {
      await server.close();
    }
  });

  it('any-openai-compatible runs against a local OpenAI-compatible server', async () => {
    const server = await startFakeOpenAIServer([
      {
        type: 'sse',
        items: [
          chunk({
            role: 'assistant',
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'multiply', arguments: '{"a":17,' },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '"b":23}' } }] }),
          chunk({}, { finish_reason: 'tool_calls' }),
        ],
      },
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', content: '17 * 23 = ' }),
          chunk({ content: '391' }),
          chunk({}, { finish_reason: 'stop' }),
        ],
      },
    ]);
    try {
      const result = await runExample('any-openai-compatible', [], {
        OPENAI_BASE_URL: server.baseURL,
        OPENAI_MODEL: 'local-model',
      });
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('17 * 23 = 391');
      expect(result.stdout).toContain('[final] 2 turns');
      const second = server.requests[1]?.body as {
        model: string;
        messages: { role: string; content: string }[];
      };
      expect(second.model).toBe('local-model');
      expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: '391' });
    } finally {
      await server.close();
    }
  });
});
