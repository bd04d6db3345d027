import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { ModelProviderError } from '../../src/errors/model-provider-error.js';
import { createExploreCodebaseTool } from '../../src/flows/explorer/create-explore-codebase-tool.js';
import type { ExplorerReport } from '../../src/flows/explorer/explorer-report-schema.js';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { TraceEmitter, TraceEvent } from '../../src/tracing/trace-events.js';

/** What a tool result may hold that must show as text in the viewer and never run. */
export const scriptPayload = '</script><script>window.__pwned=1</script>';
export const imagePayload = '<img src=x onerror="window.__pwned=2">';

const axios = fileURLToPath(new URL('../../node_modules/axios', import.meta.url));

const report: ExplorerReport = {
  question: 'Where are requests dispatched?',
  inferredUserGoal: 'Understand the request pipeline',
  confidence: 0.8,
  repoMap: { entrypoints: ['lib/axios.js'], keyDirs: ['lib/core'], configs: ['package.json'], commands: [] },
  findings: [
    {
      summary: 'Axios.prototype.request builds the interceptor chain and calls dispatchRequest.',
      evidence: [{ file: 'lib/core/Axios.js', lines: '1-20', excerpt: "'use strict';" }],
    },
  ],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};

const usage = (
  promptTokens: number,
  completionTokens: number,
  extra: { reasoning?: number; cached?: number } = {},
) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
  reasoningTokens: extra.reasoning ?? 0,
  cachedPromptTokens: extra.cached ?? 0,
});

/** The ids the scenario's calls carry, to find their spans and items. */
export const scenarioIds = {
  lookupAlpha: 'call_lookup_alpha',
  lookupScript: 'call_lookup_script',
  explore: 'call_explore',
  broken: 'call_broken',
} as const;

/**
 * Runs the scenario the observability tests share, on real orchestrators and the real explorer
 * subagent (over node_modules/axios), sending every event to `sink`:
 *
 * 1. a main run of three turns: two `lookup` calls in parallel (their results hold script and
 *    image payloads); `explore_codebase` (a subagent run of three turns, `parentRunId` set) and
 *    a `broken` tool that throws; then a final answer with reasoning;
 * 2. a second run whose second model call fails with a rate-limit error.
 *
 * Resolves to every event, in emission order.
 */
export async function runTracedScenario(sink?: TraceEmitter): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const traceEmitter: TraceEmitter = (event) => {
    events.push(event);
    return sink?.(event);
  };
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a term up.',
    parameters: z.object({ query: z.string() }),
    execute: async ({ query }) => {
      await new Promise((resolve) => setTimeout(resolve, 15));
      return `Found ${query} ${imagePayload}`;
    },
  });
  const broken = defineTool({
    name: 'broken',
    description: 'Always fails.',
    parameters: z.object({}),
    execute: () => {
      throw new Error('disk on fire');
    },
  });
  const child = new ScriptedAdapter(
    [
      ScriptedAdapter.toolCalls([['grep_repo', { pattern: 'dispatchRequest', glob: '*.js' }]], {
        model: 'explorer-model',
        usage: usage(300, 20),
      }),
      ScriptedAdapter.toolCalls([['read_file', { path: 'lib/core/Axios.js', end_line: 20 }]], {
        model: 'explorer-model',
        usage: usage(900, 25),
      }),
      ScriptedAdapter.text(JSON.stringify(report), { model: 'explorer-model', usage: usage(1500, 200) }),
    ],
    { delayMs: 5 },
  );
  const parent = new ScriptedAdapter(
    [
      ScriptedAdapter.toolCalls(
        [
          ['lookup', { query: 'alpha' }, scenarioIds.lookupAlpha],
          ['lookup', { query: scriptPayload }, scenarioIds.lookupScript],
        ],
        { model: 'main-model', usage: usage(120, 30, { cached: 100 }) },
      ),
      ScriptedAdapter.toolCalls(
        [
          ['explore_codebase', { question: 'Where are requests dispatched?' }, scenarioIds.explore],
          ['broken', {}, scenarioIds.broken],
        ],
        { model: 'main-model', usage: usage(400, 40) },
      ),
      ScriptedAdapter.text('Requests go through dispatchRequest; the broken tool failed.', {
        model: 'main-model',
        reasoning_content: 'The explorer found the dispatch path. Summarize.',
        usage: usage(2200, 60, { reasoning: 25 }),
      }),
    ],
    { delayMs: 5 },
  );
  const tools = {
    lookup,
    broken,
    explore_codebase: createExploreCodebaseTool({ adapter: child, root: axios, traceEmitter }),
  };
  const main = new ToolOrchestrator(parent, tools, { traceEmitter, toolConcurrency: 2 });
  await main.run(
    [{ role: 'user', content: 'How are requests sent in axios?' }],
    'You are a careful engineer.',
  );

  const failing = new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['lookup', { query: 'beta' }, 'call_lookup_beta']], {
      model: 'main-model',
      usage: usage(50, 10),
    }),
    () => {
      throw new ModelProviderError('rate_limit', {
        provider: 'scripted',
        status: 429,
        message: 'Slow down.',
      });
    },
  ]);
  const second = new ToolOrchestrator(failing, { lookup }, { traceEmitter });
  await second.run([{ role: 'user', content: 'And beta?' }]).then(
    () => {
      throw new Error('the second run should have failed');
    },
    (error: unknown) => {
      if (!(error instanceof ModelProviderError)) throw error;
    },
  );
  return events;
}
