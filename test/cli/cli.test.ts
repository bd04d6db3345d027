import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completion, startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import type { FakeOpenAIServer } from '../adapters/fake-openai-server.js';
import { runBuiltCli as runCli } from '../support/built-cli.js';

const axios = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));

let fixture: string;

beforeAll(async () => {
  fixture = await mkdtemp(join(tmpdir(), 'cli-fixture-'));
  await mkdir(join(fixture, 'src'));
  await writeFile(
    join(fixture, 'src', 'math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  );
  await writeFile(
    join(fixture, 'src', 'main.ts'),
    "import { add } from './math';\n\nconsole.log(add(2, 3));\n",
  );
});

afterAll(async () => {
  await rm(fixture, { recursive: true, force: true });
});

describe('tool-orchestrator tool', () => {
  it('runs one code tool on a fixture repo and prints what the model would see', async () => {
    const result = await runCli(['tool', 'list_files', '--repo', fixture]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('src/main.ts');
    expect(result.stdout).toContain('src/math.ts');
  });

  it('passes JSON arguments, e.g. read_file with a line range', async () => {
    const result = await runCli([
      'tool',
      'read_file',
      '{"path":"src/math.ts","start_line":2,"end_line":2}',
      '--repo',
      fixture,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('return a + b;');
    expect(result.stdout).not.toContain('export function add');
  });

  it('finds references in axios', async () => {
    const result = await runCli(['tool', 'get_references', '{"symbol":"AxiosError"}', '--repo', axios]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('lib/adapters/http.js');
  });

  it('exits 1 with the tool error for a missing file', async () => {
    const missing = await runCli(['tool', 'read_file', '{"path":"nope.ts"}', '--repo', fixture]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/error: .*nope\.ts/);
  });

  it('runs git tools on a linked worktree only with --allow-external-git-dir', async () => {
    const main = join(fixture, 'main');
    const linked = join(fixture, 'linked');
    const git = (cwd: string, ...args: string[]): void => {
      execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=a@example.com', ...args], {
        cwd,
        stdio: 'ignore',
      });
    };
    await mkdir(main);
    await writeFile(join(main, 'a.txt'), 'a\n');
    git(main, 'init', '-q');
    git(main, 'add', '.');
    git(main, 'commit', '-q', '-m', 'Add a.txt');
    git(main, 'worktree', 'add', '-q', linked);
    const refused = await runCli(['tool', 'git_log', '--repo', linked]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--allow-external-git-dir');
    const allowed = await runCli(['tool', 'git_log', '--repo', linked, '--allow-external-git-dir']);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('Add a.txt');
  });

  it('exits 2 for an unknown tool or command, naming the valid ones', async () => {
    const tool = await runCli(['tool', 'delete_everything', '--repo', fixture]);
    expect(tool.code).toBe(2);
    expect(tool.stderr).toContain('unknown tool "delete_everything"');
    expect(tool.stderr).toContain('read_file');
    const command = await runCli(['frobnicate']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "frobnicate"');
    const flag = await runCli(['tool', 'list_files', '--nope']);
    expect(flag.code).toBe(2);
  });

  it('has --help on every command', async () => {
    for (const args of [['--help'], ['tool', '--help'], ['tools', '--help'], ['explore', '--help']]) {
      const result = await runCli(args);
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stdout).toMatch(/Usage:/);
    }
  });
});

describe('tool-orchestrator tools', () => {
  it('lists the tools with their parameters', async () => {
    const result = await runCli(['tools', '--repo', fixture]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^read_file$/m);
    expect(result.stdout).toMatch(/^ {4}path: string \(required\)/m);
    const json = await runCli(['tools', '--repo', fixture, '--json']);
    const definitions = JSON.parse(json.stdout) as { name: string }[];
    expect(definitions.map((definition) => definition.name)).toEqual(
      expect.arrayContaining(['list_files', 'repo_map', 'git_log']),
    );
  });
});

describe('tool-orchestrator explore', () => {
  let server: FakeOpenAIServer;

  beforeAll(async () => {
    server = await startFakeOpenAIServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('exits 2 without an API key, naming both variables and the --base-url route', async () => {
    const result = await runCli(['explore', 'How does add work?', '--repo', fixture]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('DEEPSEEK_API_KEY');
    expect(result.stderr).toContain('OPENAI_API_KEY');
    expect(result.stderr).toContain('--base-url');
  });

  it('runs the explorer against a local OpenAI-compatible server and writes a JSONL trace', async () => {
    const report = {
      question: 'How does add work?',
      inferredUserGoal: 'Understand the add function',
      confidence: 0.9,
      repoMap: { entrypoints: ['src/main.ts'], keyDirs: ['src'], configs: [], commands: [] },
      findings: [
        {
          summary: 'add returns a + b',
          evidence: [{ file: 'src/math.ts', lines: '1-3', excerpt: 'return a + b;' }],
        },
      ],
      missingInfoQuestions: [],
      recommendedNextAction: 'ready_to_plan',
    };
    server.enqueue(
      {
        type: 'json',
        body: completion(
          {
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"src/math.ts"}' },
              },
            ],
          },
          {
            finish_reason: 'tool_calls',
            usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
          },
        ),
      },
      {
        type: 'json',
        body: completion(
          { content: JSON.stringify(report) },
          { usage: { prompt_tokens: 200, completion_tokens: 50, total_tokens: 250 } },
        ),
      },
    );
    const tracePath = join(fixture, 'trace.jsonl');
    const result = await runCli([
      'explore',
      'How does add work?',
      '--repo',
      fixture,
      '--base-url',
      server.baseURL,
      '--model',
      'local-model',
      '--trace',
      tracePath,
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout) as typeof report;
    expect(printed.recommendedNextAction).toBe('ready_to_plan');
    expect(printed.findings[0]?.evidence[0]?.file).toBe('src/math.ts');
    const toolMessage = (
      server.requests[1]?.body as { messages: { role: string; content: string }[] }
    ).messages.find((message) => message.role === 'tool');
    expect(toolMessage?.content).toContain('return a + b;');
    const events = (await readFile(tracePath, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; runId: string; seq: number });
    expect(events[0]?.type).toBe('run_start');
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining(['llm_call', 'tool_call', 'tool_result', 'run_end']),
    );
    expect(events.filter((event) => event.type === 'tool_result')).toHaveLength(1);
  });
});
