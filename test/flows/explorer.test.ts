import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import type { Usage } from '../../src/model/usage.js';
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
/** The call that forces the report's final-answer tool (an adapter without native structured output). */
const forcedReport = { type: 'function', function: { name: 'ExplorerReport' } };
const usage = (total: number): Usage => ({
  promptTokens: total - 1,
  completionTokens: 1,
  totalTokens: total,
  reasoningTokens: 0,
  cachedPromptTokens: 0,
});

/** A parent that calls explore_codebase once with `args` (call id `explore_call`), then answers 'done'. */
async function runParent(childAdapter: ScriptedAdapter, args: Record<string, unknown>) {
  const events: TraceEvent[] = [];
  const sink = (event: TraceEvent) => void events.push(event);
  const parentAdapter = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['explore_codebase', args, 'explore_call']], { usage: usage(10) }),
    ScriptedAdapter.text('done', { usage: usage(20) }),
  ]);
  // The parent's own sink given to the tool too, as earlier versions asked: nothing is recorded twice.
  const tools = {
    explore_codebase: createExploreCodebaseTool({ adapter: childAdapter, root, traceEmitter: sink }),
  };
  const result = await new ToolOrchestrator(parentAdapter, tools, { traceEmitter: sink }).run([
    { role: 'user', content: 'go' },
  ]);
  const toolResult = result.traces.find(
    (event) => event.type === 'tool_result' && event.runId === result.runId,
  );
  if (toolResult?.type !== 'tool_result') throw new Error('no tool_result');
  return { result, events, toolResult: toolResult.data };
}

describe('explorer subagent', () => {
  it('searches, reads, and returns a valid report with child traces nested under the parent run', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'dispatchRequest', glob: '*.js' }]], {
        usage: usage(100),
      }),
      ScriptedAdapter.toolCalls([['read_file', { path: 'lib/core/Axios.js', end_line: 20 }]], {
        usage: usage(200),
      }),
      ScriptedAdapter.text(reportText, { usage: usage(300) }),
    ]);
    const { result, events, toolResult } = await runParent(child, {
      question: report.question,
      directory: 'lib',
    });

    expect(toolResult.error).toBeUndefined();
    expect(toolResult.result).toEqual(report);
    expect(child.calls[0]!.tools.map((tool) => tool.function.name)).toEqual([
      'read_file',
      'grep_repo',
      'ExplorerReport',
    ]);
    expect(child.calls[1]!.messages.at(-1)?.content).toContain('lib/core/dispatchRequest.js');
    const childEvents = events.filter((event) => event.runId !== result.runId);
    expect(childEvents.map((event) => event.type)).toEqual(
      expect.arrayContaining(['run_start', 'llm_call', 'tool_call', 'tool_result', 'run_end']),
    );
    for (const event of childEvents) {
      expect(event.parentRunId).toBe(result.runId);
      expect(event.parentToolCallId).toBe('explore_call');
    }
    // Once each: through the calling run, not also through the tool's traceEmitter.
    expect(childEvents.filter((event) => event.type === 'run_start')).toHaveLength(1);
    expect(result.traces.filter((event) => event.runId !== result.runId)).toEqual(childEvents);
    expect(
      events
        .filter((event) => event.runId === result.runId)
        .every((event) => event.parentRunId === undefined),
    ).toBe(true);
    expect(result.usage.totalTokens).toBe(10 + 20 + 100 + 200 + 300);
  });

  it("streams the child's events from the parent's stream(), and the parent's abort stops the child", async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'axios' }]]),
      ScriptedAdapter.text(reportText),
    ]);
    const parentAdapter = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['explore_codebase', { question: 'q' }, 'explore_call']]),
      ScriptedAdapter.text('done'),
    ]);
    const tools = { explore_codebase: createExploreCodebaseTool({ adapter: child, root }) };
    const stream = new ToolOrchestrator(parentAdapter, tools).stream([{ role: 'user', content: 'go' }]);
    const streamed: TraceEvent[] = [];
    for await (const event of stream) streamed.push(event);
    const result = await stream.result;
    const nested = streamed.filter((event) => event.parentToolCallId === 'explore_call');
    expect(nested.map((event) => event.type)).toEqual(expect.arrayContaining(['run_start', 'run_end']));
    expect(nested.every((event) => event.parentRunId === result.runId)).toBe(true);

    // The child's call waits for its signal (at most 2 s); the parent aborts once that call has started.
    const abort = new AbortController();
    let childSawAbort = false;
    const waiting = new ScriptedAdapter([
      async (_messages, _tools, options) => {
        setTimeout(() => abort.abort(), 10);
        childSawAbort = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 2_000);
          options.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve(true);
          });
        });
        return ScriptedAdapter.text(reportText);
      },
    ]);
    const aborting = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['explore_codebase', { question: 'q' }]]),
      ScriptedAdapter.text('never'),
    ]);
    const aborted = await new ToolOrchestrator(aborting, {
      explore_codebase: createExploreCodebaseTool({ adapter: waiting, root }),
    }).run([{ role: 'user', content: 'go' }], undefined, { signal: abort.signal });
    expect(aborted.stopReason).toBe('aborted');
    await expect.poll(() => childSawAbort, { timeout: 3_000 }).toBe(true);
  });

  it('called outside a run, sends the child events to its traceEmitter, stamped with the call', async () => {
    const events: TraceEvent[] = [];
    const tool = createExploreCodebaseTool({
      adapter: new ScriptedAdapter([ScriptedAdapter.text(reportText)]),
      root,
      traceEmitter: (event) => void events.push(event),
    });
    const value = await tool.execute(
      { question: report.question },
      {
        requestId: 'request',
        runId: 'caller-run',
        turnIndex: 0,
        toolCallId: 'caller-call',
        signal: new AbortController().signal,
      },
    );
    expect(value).toEqual(report);
    expect(events.map((event) => event.type)).toEqual(expect.arrayContaining(['run_start', 'run_end']));
    for (const event of events) {
      expect(event.parentRunId).toBe('caller-run');
      expect(event.parentToolCallId).toBe('caller-call');
    }
  });

  it('with native structured output, asks for the report in the format and repairs invalid JSON once', async () => {
    const child = new ScriptedAdapter(
      [ScriptedAdapter.text('Here is the report: {not json'), ScriptedAdapter.text(reportText)],
      { supportsResponseFormat: true },
    );
    const value = await runExplorer({ adapter: child, root, question: report.question });

    expect(value).toEqual(report);
    expect(child.calls).toHaveLength(2);
    expect(child.calls[0]!.options.responseFormat).toMatchObject({
      type: 'json_schema',
      name: 'ExplorerReport',
    });
    expect(child.calls[0]!.tools.map((tool) => tool.function.name)).toEqual(['read_file', 'grep_repo']);
    const repairRequest = child.calls[1]!.messages.at(-1)!;
    expect(repairRequest.role).toBe('user');
    expect(repairRequest.content).toContain('does not match the required JSON schema');
    expect(repairRequest.content).toContain('not valid JSON');
    expect(child.calls[1]!.options.toolChoice).toBe('none');
  });

  it('without native structured output, forces the ExplorerReport tool after a prose answer', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.text('Requests go through dispatchRequest.'),
      ScriptedAdapter.toolCalls([['ExplorerReport', report]]),
    ]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    expect(child.calls[1]!.options.toolChoice).toEqual(forcedReport);
    expect(child.calls[1]!.tools.map((tool) => tool.function.name)).toEqual(['ExplorerReport']);
  });

  it('names schema violations in the repair request', async () => {
    const child = new ScriptedAdapter([
      ScriptedAdapter.toolCalls([['ExplorerReport', { ...report, confidence: 3 }]]),
      ScriptedAdapter.toolCalls([['ExplorerReport', report]]),
    ]);
    await expect(runExplorer({ adapter: child, root, question: report.question })).resolves.toEqual(report);
    const shown = child.calls[1]!.messages.at(-1)!;
    expect(shown.role).toBe('tool');
    expect(shown.content).toContain('confidence');
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
    const child = new ScriptedAdapter([ScriptedAdapter.text('nope'), ScriptedAdapter.text('still nope')], {
      supportsResponseFormat: true,
    });
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
    expect(child.calls[4]!.options.toolChoice).toEqual(forcedReport);
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
    expect(child.calls[4]!.options.toolChoice).toEqual(forcedReport);
    expect(child.calls[4]!.tools.map((tool) => tool.function.name)).toEqual(['ExplorerReport']);
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
    expect(child.calls[1]!.options.toolChoice).toEqual(forcedReport);
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
    // The report and repair calls go with only the report tool, forced, after the report request.
    expect(child.calls[1]!.options.toolChoice).toEqual(forcedReport);
    expect(child.calls[1]!.messages.at(-1)?.content).toContain('budget is spent');
    expect(child.calls[2]!.options.toolChoice).toEqual(forcedReport);
    expect(child.calls[2]!.tools.map((tool) => tool.function.name)).toEqual(['ExplorerReport']);
    expect(child.calls[2]!.messages.at(-1)?.content).toContain('does not match the required JSON schema');
  });
});
