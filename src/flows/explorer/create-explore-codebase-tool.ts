import { z } from 'zod';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { defineTool } from '../../tools/define-tool.js';
import type { ToolExecutionContext, ToolRegistry } from '../../tools/define-tool.js';
import type { TraceEmitter, TraceEvent } from '../../tracing/trace-events.js';
import type { StructuredOutputMode } from '../shared/structured-output-mode.js';
import { createExplorerAgent } from './explorer-agent.js';
import type { ExplorerReport } from './explorer-report-schema.js';
import { withExplorerTimeout } from './with-explorer-timeout.js';

/** Options of {@link createExploreCodebaseTool}. */
export interface ExploreCodebaseToolOptions {
  /** The child's model; may differ from the parent's (a cheaper one often does). */
  readonly adapter: ModelAdapter;
  /** The repository root; `directory` must lie inside it. */
  readonly root: string;
  /**
   * Receives the child's trace events when the tool is called outside a `ToolOrchestrator` run
   * (a custom runner, `execute` called directly). Inside a run, the child's events go to the
   * calling run (its `traces`, listeners, `stream()` and sinks) and not here, so passing the
   * parent's own sink, as earlier versions asked, records nothing twice.
   */
  readonly traceEmitter?: TraceEmitter;
  /** Code tools holding `read_file` and `search_text`. @default the tool pack's, over `root` */
  readonly tools?: ToolRegistry;
  /**
   * @deprecated Ignored: the report is the child run's typed `output`, native structured output
   * when the adapter has it, else the `ExplorerReport` tool.
   */
  readonly structuredOutput?: StructuredOutputMode;
}

const parameters = z.object({
  question: z.string().min(1).describe('What you need to know about the codebase.'),
  directory: z.string().optional().describe('A directory inside the repository to focus on.'),
  hints: z.array(z.string()).optional().describe('Names, terms or guesses that may help the search.'),
  files: z.array(z.string()).optional().describe('Files to start from.'),
  depth: z.enum(['shallow', 'normal', 'deep']).optional().describe('How far to dig. Default "normal".'),
  repair: z.boolean().optional().describe('Allow one repair of an invalid report. Default true.'),
  timeout_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe('Abort after this many milliseconds; 0 = no limit. Default 0.'),
});

const name = 'explore_codebase';
const description =
  'Delegate a question about the codebase to a read-only explorer. It searches and reads files and returns a JSON ' +
  'report: the inferred goal, confidence, a repo map, up to 5 findings with evidence, open questions and the ' +
  'recommended next action (ask_confirmation, ask_clarifying_questions or ready_to_plan).';

/**
 * Creates the `explore_codebase` tool: an agent tool (see `orchestrator.asTool()`) whose agent is
 * the explorer subagent of {@link runExplorer}, built for each call from its arguments (the
 * directory its search starts in, its depth's budget of turns). Inside a run, the child's events
 * reach the calling run stamped with `parentRunId` and `parentToolCallId`, its usage counts in
 * the calling run's usage and budget, and the calling run's abort stops it. The tool's result is
 * the `ExplorerReport`. Every failure (an invalid report, a timeout, a directory outside `root`)
 * becomes a tool error result for the parent; the parent never crashes.
 *
 * @example
 * const tools = { explore_codebase: createExploreCodebaseTool({ adapter, root: '.' }) };
 * const parent = new ToolOrchestrator(adapter, tools, { traceEmitter: sink });
 */
export function createExploreCodebaseTool(options: ExploreCodebaseToolOptions) {
  return defineTool({
    name,
    description,
    parameters,
    execute: async (input, context): Promise<ExplorerReport> => {
      const outside = context.callingRun === undefined;
      const explorer = await createExplorerAgent({
        adapter: options.adapter,
        root: options.root,
        directory: input.directory,
        hints: input.hints,
        files: input.files,
        depth: input.depth,
        repair: input.repair,
        timeoutMs: input.timeout_ms,
        tools: options.tools,
        ...(outside ? outsideTrace(options.traceEmitter, context) : {}),
      });
      const agent = explorer.orchestrator.asTool({
        name,
        description,
        instructions: explorer.systemPrompt,
        prompt: () => input.question,
        output: explorer.output,
      });
      return withExplorerTimeout(
        { timeoutMs: explorer.timeoutMs, question: input.question, signal: context.signal },
        async (signal) => (await agent.execute(input, { ...context, signal })) as ExplorerReport,
      );
    },
  });
}

/** Outside a run, the child's events go to `traceEmitter`, stamped as an agent tool's would be. */
function outsideTrace(
  traceEmitter: TraceEmitter | undefined,
  context: ToolExecutionContext,
): { traceEmitter?: TraceEmitter } {
  if (traceEmitter === undefined) return {};
  return {
    traceEmitter: (event) =>
      traceEmitter(
        (event.parentRunId === context.runId && event.parentToolCallId === undefined
          ? { ...event, parentToolCallId: context.toolCallId }
          : event) as TraceEvent,
      ),
  };
}
