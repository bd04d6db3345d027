import type { ContextWindowOptions } from '../../orchestrator/context-window/context-window-options.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import type { TraceEmitter, TraceEvent } from '../../tracing/trace-events.js';
import type { StructuredOutputMode } from '../shared/structured-output-mode.js';
import type { ExplorerDepth } from './explorer-depth.js';
import { createExplorerAgent } from './explorer-agent.js';
import type { ExplorerReport } from './explorer-report-schema.js';
import { withExplorerTimeout } from './with-explorer-timeout.js';

/** Options of {@link runExplorer}. */
export interface RunExplorerOptions {
  readonly adapter: ModelAdapter;
  /** The repository root; the child reads nothing outside it. */
  readonly root: string;
  readonly question: string;
  /** A directory inside `root` to focus on (the default search path). */
  readonly directory?: string;
  readonly hints?: readonly string[];
  readonly files?: readonly string[];
  /** Sets the budget of tool turns, see {@link explorerDepthTurns}. @default 'normal' */
  readonly depth?: ExplorerDepth;
  /** Overrides the depth's budget of model calls with tools on. @default explorerDepthTurns[depth] */
  readonly maxTurns?: number;
  /** Stream the child's model calls, so `traceEmitter` gets `content_delta` events (progress output). @default false */
  readonly stream?: boolean;
  /** One repair call when the report misses its schema (the typed output's `repair`). @default true */
  readonly repair?: boolean;
  /** Milliseconds before the child is aborted; 0 means no limit. @default 0 */
  readonly timeoutMs?: number;
  /** Receives the child's trace events, the report and repair calls included. */
  readonly traceEmitter?: TraceEmitter;
  /** Stamped on the child's events: the parent run's id. */
  readonly parentRunId?: string;
  /** Stamped on the child's events that reach `traceEmitter`: the parent's tool call running the explorer. */
  readonly parentToolCallId?: string;
  /**
   * Keeps each call under the model's window (see docs/context-window.md); `false` turns it off.
   * @default on, with the adapter's window, or 32,768 tokens when the adapter knows none
   */
  readonly contextWindow?: ContextWindowOptions | boolean;
  readonly signal?: AbortSignal;
  /** Code tools holding `read_file` and `search_text`. @default the tool pack's, over `root` */
  readonly tools?: ToolRegistry;
  /**
   * @deprecated Ignored: the report is the run's typed `output`, native structured output when
   * the adapter has it, else the `ExplorerReport` tool.
   */
  readonly structuredOutput?: StructuredOutputMode;
}

/**
 * Runs the explorer subagent: a child `ToolOrchestrator` allowed exactly `read_file` and
 * `grep_repo`, whose typed `output` is one {@link ExplorerReport} (named `ExplorerReport`): the
 * provider's native structured output when the adapter has it, else an `ExplorerReport` tool; a
 * JSON answer in text is taken too. A report that misses the schema gets one repair call (unless
 * `repair: false`). When the budget of turns runs out, one more call with tools off asks for the
 * report. Every model call reaches `traceEmitter`, stamped with `parentRunId`.
 *
 * To call the explorer from another agent, give that agent {@link createExploreCodebaseTool}: its
 * events, usage and abort then go with the calling run.
 *
 * @throws {InvalidArgumentError} for a bad depth, timeout, or a `directory` outside `root`.
 * @throws {StructuredOutputError} when the report misses the schema (after the repair call, if on).
 * @throws {ExplorerTimeoutError} when `timeoutMs` passes first.
 */
export async function runExplorer(options: RunExplorerOptions): Promise<ExplorerReport> {
  const parentToolCallId = options.parentToolCallId;
  const sink = options.traceEmitter;
  // A new envelope around the same `data`, so lazy fields such as `llm_call.data.messages` stay lazy.
  const traceEmitter: TraceEmitter | undefined =
    sink === undefined || parentToolCallId === undefined
      ? sink
      : (event) => sink({ ...event, parentToolCallId } as TraceEvent);
  const explorer = await createExplorerAgent({ ...options, traceEmitter });
  return withExplorerTimeout(
    { timeoutMs: explorer.timeoutMs, question: options.question, signal: options.signal },
    async (signal) => {
      const result = await explorer.orchestrator.run(
        [{ role: 'user', content: options.question }],
        explorer.systemPrompt,
        { signal, output: explorer.output },
      );
      if (result.stopReason === 'aborted') signal.throwIfAborted();
      if (result.output === undefined) {
        throw new Error(
          `The explorer's run ended (${result.stopReason}) without its report; its trace's output_missing warning says why.`,
        );
      }
      return result.output;
    },
  );
}
