import { z } from 'zod';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { defineTool } from '../../tools/define-tool.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import type { TraceEmitter } from '../../tracing/trace-events.js';
import type { StructuredOutputMode } from '../shared/generate-structured.js';
import { runExplorer } from './run-explorer.js';

/** Options of {@link createExploreCodebaseTool}. */
export interface ExploreCodebaseToolOptions {
  /** The child's model; may differ from the parent's (a cheaper one often does). */
  readonly adapter: ModelAdapter;
  /** The repository root; `directory` must lie inside it. */
  readonly root: string;
  /**
   * Receives the child's trace events. Pass the parent's own sink (the `traceEmitter` given to
   * the parent `ToolOrchestrator`) so parent and child events land together; the child's carry
   * `parentRunId`.
   */
  readonly traceEmitter?: TraceEmitter;
  /** Code tools holding `read_file` and `search_text`. @default the tool pack's, over `root` */
  readonly tools?: ToolRegistry;
  /** @default 'json_object' */
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

/**
 * Creates the `explore_codebase` tool: it runs {@link runExplorer} as a read-only child agent
 * and returns its `ExplorerReport`. Every failure (invalid report, timeout, a directory
 * outside `root`) becomes a tool error result for the parent; the parent never crashes.
 *
 * @example
 * const tools = { explore_codebase: createExploreCodebaseTool({ adapter, root: '.', traceEmitter: sink }) };
 * const parent = new ToolOrchestrator(adapter, tools, { traceEmitter: sink });
 */
export function createExploreCodebaseTool(options: ExploreCodebaseToolOptions) {
  return defineTool({
    name: 'explore_codebase',
    description:
      'Delegate a question about the codebase to a read-only explorer. It searches and reads files and returns a JSON ' +
      'report: the inferred goal, confidence, a repo map, up to 5 findings with evidence, open questions and the ' +
      'recommended next action (ask_confirmation, ask_clarifying_questions or ready_to_plan).',
    parameters,
    execute: (input, context) =>
      runExplorer({
        adapter: options.adapter,
        root: options.root,
        question: input.question,
        parentRunId: context.runId,
        parentToolCallId: context.toolCallId,
        signal: context.signal,
        ...(input.directory === undefined ? {} : { directory: input.directory }),
        ...(input.hints === undefined ? {} : { hints: input.hints }),
        ...(input.files === undefined ? {} : { files: input.files }),
        ...(input.depth === undefined ? {} : { depth: input.depth }),
        ...(input.repair === undefined ? {} : { repair: input.repair }),
        ...(input.timeout_ms === undefined ? {} : { timeoutMs: input.timeout_ms }),
        ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
        ...(options.tools === undefined ? {} : { tools: options.tools }),
        ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
      }),
  });
}
