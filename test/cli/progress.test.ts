import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import type { CliIo } from '../../src/cli/cli-io.js';
import { chunk, startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import type { FakeOpenAIServer } from '../adapters/fake-openai-server.js';

let server: FakeOpenAIServer;
let repo: string;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
  repo = await mkdtemp(join(tmpdir(), 'cli-progress-'));
  await writeFile(join(repo, 'hello.ts'), 'export const greeting = "hello";\n');
});
afterAll(async () => {
  await server.close();
  await rm(repo, { recursive: true, force: true });
});

const report = {
  question: 'What does hello.ts export?',
  inferredUserGoal: null,
  confidence: 0.8,
  repoMap: { entrypoints: ['hello.ts'], keyDirs: [], configs: [], commands: [] },
  findings: [
    {
      summary: 'It exports greeting.',
      evidence: [{ file: 'hello.ts', lines: '1', excerpt: 'export const greeting' }],
    },
  ],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};

describe('explore progress on a terminal', () => {
  it('shows turns, tool calls with arguments and results, streamed reasoning and a final line', async () => {
    const usage = { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 };
    server.enqueue(
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', reasoning_content: 'Let me read ' }),
          chunk({ reasoning_content: 'the file.' }),
          chunk({
            tool_calls: [
              { index: 0, id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '' } },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"hello.ts"}' } }] }),
          chunk({}, { finish_reason: 'tool_calls', usage }),
        ],
      },
      {
        type: 'sse',
        items: [
          chunk({ role: 'assistant', reasoning_content: 'Done.', content: JSON.stringify(report) }),
          chunk({}, { finish_reason: 'stop', usage }),
        ],
      },
    );
    let stdout = '';
    let stderr = '';
    const io: CliIo = {
      stdout: (text) => void (stdout += text),
      stderr: (text) => void (stderr += text),
      stderrIsTty: true,
      env: { DEEPSEEK_API_KEY: 'test-key' },
    };
    const code = await runCli(
      [
        'explore',
        'What does hello.ts export?',
        '--repo',
        repo,
        '--provider',
        'deepseek',
        '--base-url',
        server.baseURL,
      ],
      io,
    );
    // eslint-disable-next-line no-control-regex
    stderr = stderr.replace(/\u001b\[\d+m/g, '');
    expect(stderr).toContain('thinking: ');
    expect(stderr).toContain('Let me read the file.');
    expect(code).toBe(0);
    expect(stderr).toMatch(/turn 1: model answered in \d+ms, 60 tokens/);
    expect(stderr).toMatch(/read_file\(\{"path":"hello\.ts"\}\) \d+ms -> /);
    expect(stderr).toMatch(/done: 2 turns, 120 tokens, .* \(final\)/);
    expect(JSON.parse(stdout)).toEqual(report);
    // Streaming was requested because progress is live.
    expect((server.requests[0]?.body as { stream?: boolean }).stream).toBe(true);
  });
});
