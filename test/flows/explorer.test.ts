import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { createExploreCodebaseTool } from '../../src/flows/explorer/create-explore-codebase-tool.js';
import { runExplorer } from '../../src/flows/explorer/run-explorer.js';
import type { ExplorerReport } from '../../src/flows/explorer/explorer-report-schema.js';
import { StructuredOutputError } from '../../src/errors/structured-output-error.js';
import { ExplorerTimeoutError } from '../../src/flows/errors/explorer-timeout-error.js';

const root = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));

const report: ExplorerReport = {
  question: 'Where are requests dispatched?',
  inferredUserGoal: 'Understand the request pipeline',
  confidence: 0.8,
  repoMap: {
    entrypoints: ['index.js', 'lib/axios.js'],
    keyDirs: ['lib/core'],
    configs: ['package.json'],
    commands: [],
  },
  findings: [
    {
      summary: 'Axios.prototype.request builds the interceptor chain.',
      evidence: [{ file: 'lib/core/Axios.js', lines: '1-20', excerpt: "'use strict';" }],
    },
  ],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};
const reportText = JSON.stringify(report);

/** A parent that calls explore_codebase once with `args`, then answers 'done'. */
async function runParent(childAdapter: ScriptedAdapter, args: Record<string, unknown>) {
  const events: TraceEvent[] = [];
  const sink = (event: TraceEvent) => void events.push(event);
  const parentAdapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['explore_codebase', args]]),
    ScriptedAdapter.text('done'),
  ]);
  const tools = {
    explore_codebase: createExploreCodebaseTool({ adapter: childAdapter, root, traceEmitter: sink }),
  };
  const result = await new ToolOrchestrator(parentAdapter, tools, { traceEmitter: sink }).run([
    { role: 'user', content: 'go' },
  ]);
  const toolResult = result.traces.find((event) => event.type === 'tool_result');
  if (toolResult?.type !== 'tool_result') throw new Error('no tool_result');
  return { result, events, toolResult: toolResult.data };
}

describe('explorer subagent', () => {
  it('searches, reads, and returns a valid report with child traces nested under the parent run', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'dispatchRequest', glob: '*.js' }]]),
      ScriptedAdapter.toolCalls([['read_file', { path: 'lib/core/Axios.js', end_line: 20 }]]),
      ScriptedAdapter.text(reportText),
    ]);
    const { result, events, toolResult } = await runParent(child, {
      question: report.question,
      directory: 'lib',
    });

    expect(toolResult.error).toBeUndefined();
    expect(toolResult.result).toEqual(report);
    expect(child.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['read_file', 'grep_repo']);
    expect(child.calls[1]!.messages.at(-1)?.content).toContain('lib/core/dispatchRequest.js');
    const childEvents = events.filter((event) => event.runId !== result.runId);
    expect(childEvents.length).toBeGreaterThan(0);
    expect(childEvents.every((event) => event.parentRunId === result.runId)).toBe(true);
    expect(childEvents.map((event) => event.type)).toContain('run_end');
    expect(
      events
        .filter((event) => event.runId === result.runId)
        .every((event) => event.parentRunId === undefined),
    ).toBe(true);
  });

  it('repairs invalid JSON once, showing the model its errors', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.text('Here is the report: {not json'),
      ScriptedAdapter.text(reportText),
    ]);
    const value = await runExplorer({ adapter: child, root, question: report.question });

    expect(value).toEqual(report);
    expect(child.calls).toHaveLength(2);
    const repairRequest = child.calls[1]!.messages.at(-1)!;
    expect(repairRequest.role).toBe('user');
    expect(repairRequest.content).toContain('not a valid ExplorerReport');
    expect(repairRequest.content).toContain('not valid JSON');
    expect(child.calls[1]!.options.toolChoice).toBe('none');
  });

  it('names schema violations in the repair request', async () => {
    const invalid = JSON.stringify({ ...report, confidence: 3 });
    const child = new ScriptedAdapter([ScriptedAdapter.text(invalid), ScriptedAdapter.text(reportText)]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    expect(child.calls[1]!.messages.at(-1)?.content).toContain('confidence:');
  });

  it('with repair false, fails on the first invalid report (an error result for the parent)', async () => {
    const child = new ScriptedAdapter([ScriptedAdapter.text('{"question": "x"}')]);
    await expect(runExplorer({ adapter: child, root, question: 'x', repair: false })).rejects.toBeInstanceOf(
      StructuredOutputError,
    );

    const again = new ScriptedAdapter([ScriptedAdapter.text('{"question": "x"}')]);
    const { result, toolResult } = await runParent(again, { question: 'x', repair: false });
    expect(again.calls).toHaveLength(1);
    expect(toolResult.errorCode).toBe('tool_error');
    expect(toolResult.error).toContain('not a valid ExplorerReport');
    expect(result.content).toBe('done');
  });

  it('still invalid after the repair call: a clear error', async () => {
    const child = new ScriptedAdapter([ScriptedAdapter.text('nope'), ScriptedAdapter.text('still nope')]);
    const error = await runExplorer({ adapter: child, root, question: 'x' }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(StructuredOutputError);
    expect((error as StructuredOutputError).repaired).toBe(true);
    expect((error as StructuredOutputError).rawOutput).toBe('still nope');
  });

  it('accepts a report wrapped in one Markdown fence without a repair call', async () => {
    const child = new ScriptedAdapter([ScriptedAdapter.text(`\`\`\`json\n${reportText}\n\`\`\``)]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    expect(child.calls).toHaveLength(1);
  });

  it('aborts the child at timeout_ms and returns an error result', async () => {
    const child = new ScriptedAdapter([ScriptedAdapter.text(reportText)], { delayMs: 1_000 });
    await expect(runExplorer({ adapter: child, root, question: 'x', timeoutMs: 30 })).rejects.toBeInstanceOf(
      ExplorerTimeoutError,
    );

    const slow = new ScriptedAdapter([ScriptedAdapter.text(reportText)], { delayMs: 1_000 });
    const started = Date.now();
    const { toolResult } = await runParent(slow, { question: 'x', timeout_ms: 30 });
    expect(Date.now() - started).toBeLessThan(900);
    expect(toolResult.error).toContain('timed out after 30 ms');
  });

  it('refuses a directory outside root before calling the model', async () => {
    const child = new ScriptedAdapter([ScriptedAdapter.text(reportText)]);
    const { toolResult } = await runParent(child, { question: 'x', directory: '../..' });
    expect(toolResult.error).toMatch(
      /Invalid directory \("\.\.\/\.\."\): must be an existing directory inside/,
    );
    expect(child.calls).toHaveLength(0);
  });

  it('enforces the allowlist: list_files is an unknown tool for the child', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['list_files', {}]]),
      ScriptedAdapter.text(reportText),
    ]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    const toolMessage = child.calls[1]!.messages.at(-1)!;
    expect(toolMessage.role).toBe('tool');
    expect(JSON.parse(String(toolMessage.content))).toEqual({
      error:
        'Unknown tool "list_files". Available tools: read_file, grep_repo. Call one of these by its exact name.',
    });
  });

  it('still answers with its report when the loop guard stops a model repeating one search', async () => {
    const child = new ScriptedAdapter([
      ...Array.from({ length: 4 }, () => ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'axios' }]])),
      ScriptedAdapter.text(reportText),
    ]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    expect(child.calls).toHaveLength(5);
    expect(child.calls[4]!.options.toolChoice).toBe('none');
  });

  it('asks for the report with tools off when the depth budget runs out', async () => {
    const child = new ScriptedAdapter([
      // Four different patterns: the same call four times in a row would be caught by the loop guard.
      ...['axios', 'request', 'adapter', 'headers'].map((pattern) =>
        ScriptedAdapter.toolCalls([['grep_repo', { pattern }]]),
      ),
      ScriptedAdapter.text(reportText),
    ]);
    await expect(
      runExplorer({ adapter: child, root, question: report.question, depth: 'shallow' }),
    ).resolves.toEqual(report);
    expect(child.calls).toHaveLength(5);
    expect(child.calls[4]!.options.toolChoice).toBe('none');
    expect(child.calls[4]!.messages.at(-1)?.content).toContain('budget is spent');
  });
});

describe('runExplorer options for a CLI', () => {
  it('maxTurns overrides the depth budget, and stream sends deltas to the trace sink', async () => {
    const events: TraceEvent[] = [];
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'axios' }]]),
      ScriptedAdapter.text(reportText),
    ]);
    const value = await runExplorer({
      adapter: child,
      root,
      question: report.question,
      maxTurns: 1,
      stream: true,
      traceEmitter: (event) => void events.push(event),
    });
    expect(value).toEqual(report);
    expect(child.calls).toHaveLength(2);
    expect(child.calls[1]!.options.toolChoice).toBe('none');
    expect(events.some((event) => event.type === 'tool_call_delta')).toBe(true);
    await expect(runExplorer({ adapter: child, root, question: 'x', maxTurns: 0 })).rejects.toThrow(
      /maxTurns \(0\)/,
    );
  });

  it('traces every model call, report and repair included, into the sink under parentRunId', async () => {
    const events: TraceEvent[] = [];
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'axios' }]]),
      ScriptedAdapter.text('not json'),
      ScriptedAdapter.text(reportText),
    ]);
    const value = await runExplorer({
      adapter: child,
      root,
      question: report.question,
      maxTurns: 1,
      traceEmitter: (event) => void events.push(event),
      parentRunId: 'parent-run',
    });
    expect(value).toEqual(report);
    expect(child.calls).toHaveLength(3);
    const llmCalls = events.filter((event) => event.type === 'llm_call');
    expect(llmCalls).toHaveLength(child.calls.length);
    expect(llmCalls.map((event) => event.data.response.content)).toEqual([null, 'not json', reportText]);
    expect(events.every((event) => event.parentRunId === 'parent-run')).toBe(true);
    // The report and repair calls still go with tools off, after the report request.
    expect(child.calls[1]!.options.toolChoice).toBe('none');
    expect(child.calls[1]!.messages.at(-1)?.content).toContain('budget is spent');
    expect(child.calls[2]!.options.toolChoice).toBe('none');
    expect(child.calls[2]!.tools.map((tool) => tool.function.name)).toEqual(['read_file', 'grep_repo']);
    expect(child.calls[2]!.messages.at(-1)?.content).toContain('not a valid ExplorerReport');
  });
});
