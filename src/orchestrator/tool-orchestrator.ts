import { EventEmitter } from 'eventemitter3';
import { fingerprintRun } from '../durable/run-fingerprint.js';
import type { RunFingerprint } from '../durable/run-fingerprint.js';
import type { RunState as SavedRunState } from '../durable/run-state.js';
import type { ChatMessage } from '../model/messages.js';
import type { ModelAdapter, ModelToolDefinition } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { ToolRunner } from '../tools/tool-runner.js';
import type { TraceEvent, TraceEventOf, TraceEventType } from '../tracing/trace-events.js';
import type {
  ResumeOptions,
  RunOptions,
  RunResult,
  ToolOrchestratorOptions,
} from './orchestrator-options.js';
import { applyDecisions } from './approvals.js';
import { checkFingerprint, checkNewRunId, loadSavedRun, recordedResult, restoreRun } from './restore-run.js';
import { resolveContextWindow } from './context-window/resolve-context-window.js';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import type { ResolvedContextWindow } from './context-window/context-window-options.js';
import { resolveRunConfig } from './run-config.js';
import type { RunConfig } from './run-config.js';
import { startRunState } from './run-state.js';
import { SignalWatchers } from '../shared/signal-watchers.js';
import { liveRun } from './live-run.js';
import type { StreamHooks } from './live-run.js';
import type { RunHandles } from './run-state.js';
import { driveRun } from './drive-run.js';
import { ToolDefinitionsCache } from './tool-definitions-cache.js';
import { RunStreamFeed } from './run-stream.js';
import type { RunStream } from './run-stream.js';
import type { StopCondition } from './stop-conditions.js';
import { validateOrchestratorInput, validateResumeOptions, validateRunInput } from './validate-options.js';

const defaultNow = (): number => performance.timeOrigin + performance.now();
const defaultGenerateId = (): string => globalThis.crypto.randomUUID();

/**
 * Runs the tool-calling loop: call the model, execute its tool calls, append the results,
 * repeat until the model answers without tools, a stop condition holds, `maxTurns` or a budget
 * limit is reached, the loop guard stops it, or the run is aborted. Runs are stateless: one
 * instance can serve many runs at once.
 *
 * @example
 * const orchestrator = new ToolOrchestrator(adapter, { add }, { maxTurns: 10 });
 * const { content } = await orchestrator.run([{ role: 'user', content: 'What is 2+3?' }]);
 */
export class ToolOrchestrator<Context extends object = Record<string, unknown>> {
  readonly adapter: ModelAdapter;
  readonly toolRegistry: ToolRegistry;
  readonly #toolDefinitions: ToolDefinitionsCache;
  readonly #options: ToolOrchestratorOptions<Context>;
  readonly #runner: ToolRunner;
  readonly #emitter = new EventEmitter();
  /** One listener per signal the runs share, however many runs wait on it. */
  readonly #watchers = new SignalWatchers();
  readonly #stopConditions: readonly StopCondition[];
  readonly #now: () => number;
  readonly #generateId: () => string;
  /** The tool set and model of this orchestrator's runs, as saved in their checkpoints. */
  readonly #fingerprint: RunFingerprint;
  readonly #contextWindow: ResolvedContextWindow | undefined;

  constructor(
    adapter: ModelAdapter,
    toolRegistry: ToolRegistry,
    options: ToolOrchestratorOptions<Context> = {},
  ) {
    validateOrchestratorInput(adapter, toolRegistry, options);
    this.adapter = adapter;
    this.toolRegistry = toolRegistry;
    this.#toolDefinitions = new ToolDefinitionsCache(toolRegistry);
    this.#options = options;
    this.#now = options.now ?? defaultNow;
    this.#generateId = options.generateId ?? defaultGenerateId;
    this.#contextWindow = resolveContextWindow('contextWindow', options.contextWindow, adapter);
    this.#runner =
      options.toolRunner ??
      new ToolRunner(toolRegistry, {
        ...(options.maxToolResultChars === undefined ? {} : { maxResultChars: options.maxToolResultChars }),
        now: this.#now,
      });
    const stopWhen = options.stopWhen;
    this.#stopConditions =
      stopWhen === undefined ? [] : typeof stopWhen === 'function' ? [stopWhen] : stopWhen;
    this.#fingerprint = fingerprintRun({ tools: toolRegistry, model: adapter.model });
  }

  /**
   * Listens to one event type of every run of this instance; `'*'` listens to all. A throwing
   * listener never breaks a run. For one run's events only, use `runOptions.onEvent` or `stream()`.
   */
  on(type: '*', listener: (event: TraceEvent) => void): this;
  on<Type extends TraceEventType>(type: Type, listener: (event: TraceEventOf<Type>) => void): this;
  on(type: TraceEventType | '*', listener: (event: never) => void): this {
    this.#emitter.on(type, listener as (event: unknown) => void);
    return this;
  }

  /** Removes a listener added with `on`. */
  off(type: '*', listener: (event: TraceEvent) => void): this;
  off<Type extends TraceEventType>(type: Type, listener: (event: TraceEventOf<Type>) => void): this;
  off(type: TraceEventType | '*', listener: (event: never) => void): this {
    this.#emitter.off(type, listener as (event: unknown) => void);
    return this;
  }

  /**
   * Runs the loop on a copy of `messages` (the caller's array is never changed). A system prompt
   * becomes the first message unless the messages already start with one.
   *
   * @throws {MaxTurnsExceededError} only with `onCutShort: 'throw'`.
   * @throws {BudgetExceededError} when a budget limit is reached, only with `onCutShort: 'throw'`.
   * @throws {LoopDetectedError} when the loop guard ends the run, only with `onCutShort: 'throw'`.
   * @throws {GuardrailTrippedError} when a guardrail trips or its check throws (see `guardrails`).
   * @throws {UnexpectedResponseError} when the adapter resolves to a response outside its contract.
   * @throws {InvalidArgumentError} for bad messages, a system prompt that is not a string, bad run
   * options, or a `prepareTurn` result naming unknown tools.
   * @throws the adapter's error when the model call fails (tool failures never throw).
   */
  async run(
    messages: readonly ChatMessage[],
    systemPrompt?: string,
    runOptions: RunOptions<Context> = {},
  ): Promise<RunResult> {
    validateRunInput(messages, systemPrompt, runOptions, this.toolRegistry, this.adapter);
    return this.#execute(messages, systemPrompt, runOptions, undefined);
  }

  /**
   * Starts a run and returns it as a {@link RunStream}: iterate it for this run's events (deltas
   * included), read `textStream` for the text, await `result`. Uses `adapter.stream()` whenever
   * the adapter has one, whatever the `stream` option says.
   *
   * @throws {InvalidArgumentError} at once for bad run options; the run's own failures reject `result`.
   * @example
   * const stream = orchestrator.stream([{ role: 'user', content: 'hi' }]);
   * for await (const event of stream) if (event.type === 'content_delta') process.stdout.write(event.data.delta);
   * const result = await stream.result;
   */
  stream(
    messages: readonly ChatMessage[],
    systemPrompt?: string,
    runOptions: RunOptions<Context> = {},
  ): RunStream {
    validateRunInput(messages, systemPrompt, runOptions, this.toolRegistry, this.adapter);
    const controller = new AbortController();
    return new RunStreamFeed(this.#options.collectTraces ?? true, controller, ({ onEvent, onText }) =>
      this.#execute(messages, systemPrompt, runOptions, { onEvent, onText, signal: controller.signal }),
    );
  }

  /**
   * The tools as the model sees them. Derived from the registry again when it has changed (an MCP
   * connection's registry changes in place on `tools/list_changed`), so the next model call, even
   * of a run under way, offers the current tools.
   */
  get tools(): readonly ModelToolDefinition[] {
    return this.#toolDefinitions.current();
  }

  #config(runOptions: RunOptions<Context>, streaming: boolean): RunConfig {
    return resolveRunConfig({
      adapter: this.adapter,
      registry: this.toolRegistry,
      definitions: this.#toolDefinitions,
      runner: this.#runner,
      options: this.#options,
      runOptions,
      streaming,
      stopConditions: this.#stopConditions,
      contextWindow: this.#contextWindow,
      now: this.#now,
    });
  }

  /**
   * Goes on with a saved run: by its id (loaded from the `checkpointStore`) or from a `RunState`
   * (`result.state`). Calls whose results were recorded never run again; a call that had started
   * without a recorded result runs again with the same `toolCallId` (at-least-once: use
   * `context.runId` and `context.toolCallId` as idempotency keys). `approvals` decides calls that
   * wait for a person; calls still undecided keep the run awaiting. A run that had ended is not
   * run again: its recorded result comes back (with no traces).
   *
   * @throws {ResumeMismatchError} when the tools or the model changed since the run was saved, unless `force`.
   * @throws {InvalidRunStateError} when the state is not a valid `RunState`.
   * @throws {InvalidArgumentError} for an unknown run id, a run id without a store, or a decision on a call that waits for none.
   * @example
   * const result = await orchestrator.resume(paused.state!, { approvals: { [id]: { approved: true } } });
   */
  async resume(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Context> = {},
  ): Promise<RunResult> {
    validateResumeOptions(resumeOptions, this.toolRegistry);
    return this.#resume(runIdOrState, resumeOptions, undefined);
  }

  /**
   * Goes on with a saved run, as `resume` does, and returns it as a {@link RunStream}, as `stream()`
   * does: iterate it for the events of what runs now (deltas included), read `textStream` for
   * the new text, await `result`. Uses `adapter.stream()` whenever the adapter has one. A run
   * that had ended runs nothing: the stream has no events and `result` is its recorded result.
   *
   * @throws {InvalidArgumentError} at once for bad options; loading the run, a changed tool set or
   * model and the run's own failures reject `result` (and end the iterators with the error).
   * @example
   * const stream = orchestrator.resumeStream(runId, { approvals: { [id]: { approved: true } } });
   * for await (const text of stream.textStream) process.stdout.write(text);
   * const result = await stream.result;
   */
  resumeStream(runIdOrState: string | SavedRunState, resumeOptions: ResumeOptions<Context> = {}): RunStream {
    validateResumeOptions(resumeOptions, this.toolRegistry);
    const controller = new AbortController();
    return new RunStreamFeed(this.#options.collectTraces ?? true, controller, ({ onEvent, onText }) =>
      this.#resume(runIdOrState, resumeOptions, { onEvent, onText, signal: controller.signal }),
    );
  }

  async #resume(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Context>,
    hooks: StreamHooks | undefined,
  ): Promise<RunResult> {
    const store = resumeOptions.checkpointStore ?? this.#options.checkpointStore;
    const saved = await loadSavedRun(runIdOrState, store);
    if (resumeOptions.force !== true) checkFingerprint(saved, this.#fingerprint);
    const config = this.#config(resumeOptions, hooks !== undefined);
    if (saved.result !== null) return recordedResult(saved, config.budget?.pricing);
    const decisions = { ...saved.approvalDecisions };
    applyDecisions(
      decisions,
      resumeOptions.approvals,
      saved.pendingApprovals.map((approval) => approval.toolCallId),
    );
    const handles = this.#live(saved.runId, resumeOptions, hooks, config, store, saved);
    const state = restoreRun({ ...saved, approvalDecisions: decisions }, handles, {
      guardOn: config.loopGuard !== undefined,
      generateId: this.#generateId,
    });
    return driveRun(state, config);
  }

  /** The run's handles in this process: see `liveRun`. */
  #live(
    runId: string,
    runOptions: RunOptions<Context> | ResumeOptions<Context>,
    hooks: StreamHooks | undefined,
    config: RunConfig,
    checkpointStore: CheckpointStore | undefined,
    saved?: SavedRunState,
  ): RunHandles {
    return liveRun({
      runId,
      config,
      checkpointStore,
      fingerprint: this.#fingerprint,
      saved,
      options: this.#options,
      runOptions,
      hooks,
      emitter: this.#emitter,
      watchers: this.#watchers,
      now: this.#now,
    });
  }

  async #execute(
    messages: readonly ChatMessage[],
    systemPrompt: string | undefined,
    runOptions: RunOptions<Context>,
    hooks: StreamHooks | undefined,
  ): Promise<RunResult> {
    const config = this.#config(runOptions, hooks !== undefined);
    const context = config.context as { requestId?: unknown };
    const store = runOptions.checkpointStore ?? this.#options.checkpointStore;
    const runId = runOptions.runId ?? this.#generateId();
    if (runOptions.runId !== undefined) await checkNewRunId(runId, store);
    const handles = this.#live(runId, runOptions, hooks, config, store);
    const transcript: ChatMessage[] =
      systemPrompt !== undefined && messages[0]?.role !== 'system'
        ? [{ role: 'system', content: systemPrompt }, ...messages]
        : [...messages];
    const state = startRunState(
      {
        runId,
        requestId: typeof context.requestId === 'string' ? context.requestId : this.#generateId(),
        messages: transcript,
        guardOn: config.loopGuard !== undefined,
      },
      handles,
    );
    return driveRun(state, config);
  }
}
