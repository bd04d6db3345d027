import type { ContextWindowOptions } from '../../orchestrator/context-window/context-window-options.js';
import { flowContextWindow } from '../shared/flow-context-window.js';
import { isAbortError } from '../../errors/aborted-error.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { Sandbox } from '../../explore/sandbox/sandbox.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import type { TraceEmitter, TraceEvent } from '../../tracing/trace-events.js';
import { ExplorerTimeoutError } from '../errors/explorer-timeout-error.js';
import { createDefaultCodeTools } from '../shared/default-code-tools.js';
import { readStructured } from '../shared/generate-structured.js';
import type { StructuredOutputMode } from '../shared/generate-structured.js';
import { explorerDepthTurns } from './explorer-depth.js';
import type { ExplorerDepth } from './explorer-depth.js';
import { explorerReportRequest, explorerSystemPrompt } from './explorer-prompt.js';
import { ExplorerReportSchema } from './explorer-report-schema.js';
import type { ExplorerReport } from './explorer-report-schema.js';
import { createGrepRepoTool } from './grep-repo-tool.js';

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
  /** One repair call when the report is invalid. @default true */
  readonly repair?: boolean;
  /** Milliseconds before the child is aborted; 0 means no limit. @default 0 */
  readonly timeoutMs?: number;
  /** Receives the child's trace events, the report and repair calls included; a parent passes its own sink so they land in one place. */
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
  /** @default 'json_object' */
  readonly structuredOutput?: StructuredOutputMode;
}

/**
 * Runs the explorer subagent: a child `ToolOrchestrator` allowed exactly `read_file` and
 * `grep_repo`, that answers with one {@link ExplorerReport}. A fence around the whole JSON is
 * stripped; anything else invalid gets one repair call (unless `repair: false`). When the
 * budget of turns runs out, the child makes one more call with tools off asking for the report.
 * Every model call reaches `traceEmitter`: the repair call as a run of its own, stamped with
 * the same `parentRunId`.
 *
 * @throws {InvalidArgumentError} for a bad depth, timeout, or a `directory` outside `root`.
 * @throws {StructuredOutputError} when the report is invalid (after the repair call, if on).
 * @throws {ExplorerTimeoutError} when `timeoutMs` passes first.
 */
export async function runExplorer(options: RunExplorerOptions): Promise<ExplorerReport> {
  const depth = options.depth ?? 'normal';
  const depthTurns = explorerDepthTurns[depth];
  if (depthTurns === undefined) {
    throw new InvalidArgumentError({
      argument: 'depth',
      value: depth,
      message: 'must be "shallow", "normal" or "deep".',
    });
  }
  const maxTurns = options.maxTurns ?? depthTurns;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new InvalidArgumentError({
      argument: 'maxTurns',
      value: maxTurns,
      message: 'must be a positive integer, or left out to use the depth budget.',
    });
  }
  const timeoutMs = options.timeoutMs ?? 0;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new InvalidArgumentError({
      argument: 'timeout_ms',
      value: timeoutMs,
      message: 'must be 0 (no limit) or a positive number of milliseconds.',
    });
  }
  const sandbox = new Sandbox({ root: options.root });
  const directory =
    options.directory === undefined ? undefined : await checkDirectory(sandbox, options.directory);
  const codeTools = options.tools ?? createDefaultCodeTools({ root: options.root, sandbox });
  const readFile = codeTools.read_file;
  const searchText = codeTools.search_text;
  if (readFile === undefined || searchText === undefined) {
    throw new InvalidArgumentError({
      argument: 'tools',
      value: Object.keys(codeTools),
      message: 'must hold read_file and search_text.',
    });
  }
  const registry: ToolRegistry = {
    read_file: readFile,
    grep_repo: createGrepRepoTool(searchText, directory),
  };
  const parentToolCallId = options.parentToolCallId;
  const sink = options.traceEmitter;
  // A new envelope around the same `data`, so lazy fields such as `llm_call.data.messages` stay lazy.
  const traceEmitter: TraceEmitter | undefined =
    sink === undefined || parentToolCallId === undefined
      ? sink
      : (event) => sink({ ...event, parentToolCallId } as TraceEvent);
  const timeout = new AbortController();
  const timer = timeoutMs > 0 ? setTimeout(() => timeout.abort(), timeoutMs) : undefined;
  const signal =
    options.signal === undefined ? timeout.signal : AbortSignal.any([options.signal, timeout.signal]);
  const child = new ToolOrchestrator(options.adapter, registry, {
    maxTurns,
    // At the budget: one traced call with tools off that asks for the report.
    onCutShort: 'final_answer',
    finalAnswerPrompt: explorerReportRequest,
    contextWindow: flowContextWindow(options.contextWindow, options.adapter),
    signal,
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    ...(traceEmitter === undefined ? {} : { traceEmitter }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
  });
  const system = explorerSystemPrompt({ ...options, directory, maxTurns });
  try {
    const result = await child.run([{ role: 'user', content: options.question }], system);
    if (timeout.signal.aborted) throw new ExplorerTimeoutError({ timeoutMs, question: options.question });
    if (result.stopReason === 'aborted') signal.throwIfAborted();
    // 'final', or 'max_turns' after the report call: the last message is the report.
    const response = result.messages.at(-1);
    if (response?.role !== 'assistant')
      throw new Error(`The explorer's run ended (${result.stopReason}) without an answer from the model.`);
    const { value } = await readStructured({
      adapter: options.adapter,
      messages: result.messages.slice(0, -1),
      response: { content: response.content },
      tools: child.tools,
      schema: ExplorerReportSchema,
      schemaName: 'ExplorerReport',
      signal,
      ...(traceEmitter === undefined ? {} : { traceEmitter }),
      ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
      ...(options.repair === undefined ? {} : { repair: options.repair }),
      ...(options.structuredOutput === undefined ? {} : { structuredOutput: options.structuredOutput }),
    });
    return value;
  } catch (error) {
    if (timeout.signal.aborted && isAbortError(error, signal))
      throw new ExplorerTimeoutError({ timeoutMs, question: options.question });
    throw error;
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

async function checkDirectory(sandbox: Sandbox, directory: string): Promise<string> {
  let stats;
  try {
    stats = await sandbox.stat(sandbox.relative(sandbox.resolve(directory)));
  } catch (error) {
    throw new InvalidArgumentError({
      argument: 'directory',
      value: directory,
      message: `must be an existing directory inside the repository root ${sandbox.root} (${error instanceof Error ? error.message : String(error)}).`,
    });
  }
  if (!stats.isDirectory) {
    throw new InvalidArgumentError({
      argument: 'directory',
      value: directory,
      message: 'is a file; pass a directory, or list it in files.',
    });
  }
  return sandbox.relative(sandbox.resolve(directory));
}
