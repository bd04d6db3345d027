import { fileURLToPath } from 'node:url';
import { completion, startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import { runBuiltCli } from './built-cli.js';
import type { CliRun } from './built-cli.js';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

const usage = (prompt: number, completionTokens: number, reasoning: number, cached: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completionTokens,
  total_tokens: prompt + completionTokens,
  prompt_tokens_details: { cached_tokens: cached },
  completion_tokens_details: { reasoning_tokens: reasoning },
});

/**
 * Records an exploration the way a user would: `tool-orchestrator explore --trace` on this
 * repository, against a local OpenAI-compatible server that plays a scripted model (searches,
 * reads in parallel, then reports). The tools run for real on the repository.
 */
export async function recordExploration(tracePath: string): Promise<CliRun> {
  const server = await startFakeOpenAIServer();
  const call = (id: string, name: string, args: unknown) => ({
    id,
    type: 'function',
    function: { name, arguments: JSON.stringify(args) },
  });
  const report = {
    question: 'How does the orchestrator run tool calls in parallel?',
    inferredUserGoal: 'Understand toolConcurrency before changing it',
    confidence: 0.85,
    repoMap: {
      entrypoints: ['src/index.ts'],
      keyDirs: ['src/orchestrator', 'src/tools'],
      configs: ['package.json'],
      commands: ['npm test'],
    },
    findings: [
      {
        summary:
          'ToolRunner.executeToolCalls starts a pool of min(concurrency, calls) workers; results keep call order.',
        evidence: [
          { file: 'src/tools/tool-runner.ts', lines: '56-80', excerpt: 'const concurrency = Math.min(' },
        ],
      },
    ],
    missingInfoQuestions: [],
    recommendedNextAction: 'ready_to_plan',
  };
  try {
    server.enqueue(
      {
        type: 'json',
        body: completion(
          {
            reasoning_content: 'Find where toolConcurrency is read, then read the runner around it.',
            tool_calls: [
              call('call_grep_1', 'grep_repo', { pattern: 'toolConcurrency', glob: '*.ts', path: 'src' }),
              call('call_grep_2', 'grep_repo', { pattern: 'executeToolCalls', path: 'src' }),
            ],
          },
          { finish_reason: 'tool_calls', model: 'explorer-model', usage: usage(2100, 120, 60, 0) },
        ),
      },
      {
        type: 'json',
        body: completion(
          {
            reasoning_content: 'The pool lives in ToolRunner.executeToolCalls. Read it.',
            tool_calls: [
              call('call_read_1', 'read_file', {
                path: 'src/tools/tool-runner.ts',
                start_line: 50,
                end_line: 82,
              }),
            ],
          },
          { finish_reason: 'tool_calls', model: 'explorer-model', usage: usage(3400, 90, 40, 2048) },
        ),
      },
      {
        type: 'json',
        body: completion(
          { content: JSON.stringify(report) },
          { model: 'explorer-model', usage: usage(4700, 310, 120, 3328) },
        ),
      },
    );
    return await runBuiltCli(
      [
        'explore',
        report.question,
        '--repo',
        repositoryRoot,
        '--base-url',
        server.baseURL,
        '--model',
        'explorer-model',
        '--trace',
        tracePath,
        '--json',
      ],
      { timeoutMs: 60_000 },
    );
  } finally {
    await server.close();
  }
}
