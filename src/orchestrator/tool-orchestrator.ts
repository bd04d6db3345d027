import { EventEmitter } from 'eventemitter3';
import type { RunState as SavedRunState } from '../durable/run-state.js';
import type { ChatMessage } from '../model/messages.js';
import type { ModelAdapter, ModelToolDefinition } from '../model/model-adapter.js';
import type { Tool, ToolRegistry } from '../tools/define-tool.js';
import type { TraceEvent, TraceEventOf, TraceEventType } from '../tracing/trace-events.js';
import type {
  ResumeOptions,
  RunOptions,
  RunResult,
  ToolOrchestratorOptions,
} from './orchestrator-options.js';
import { checkFingerprint, checkNewRunId, loadSavedRun, recordedResult, resumedRun } from './restore-run.js';
import { startRunState, withSystemPrompt } from './run-state.js';
import { SignalWatchers } from '../shared/signal-watchers.js';
import { liveRun } from './live-run.js';
import type { LiveRunOptions, StreamHooks } from './live-run.js';
import type { RunHandles } from './run-state.js';
import { driveRun } from './drive-run.js';
import { RunStreamFeed } from './run-stream.js';
import type { RunStream } from './run-stream.js';
import { validateOrchestratorInput, validateResumeOptions, validateRunInput } from './validate-options.js';
import { agentTool } from './agent-tool.js';
import type { AgentToolOptions, RunsAgent } from './agent-tool.js';
import type { OutputOf } from './output/output-options.js';
import { AgentProfile } from './handoffs/agent-profile.js';
import { runAgent } from './handoffs/handoff-run.js';
import { defaultGenerateId, defaultNow } from '../shared/runtime-defaults.js';

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
export class ToolOrchestrator<Context extends object = Record<string, unknown>, OutputSchema = undefined> {
  readonly adapter: ModelAdapter;
  readonly toolRegistry: ToolRegistry;
  readonly #options: ToolOrchestratorOptions<Context, OutputSchema>;
  /** What every run's configuration is resolved from (but the run's own options), and the agent's handoffs. */
  readonly #agent: AgentProfile;
  readonly #emitter = new EventEmitter();
  /** One listener per signal the runs share, however many runs wait on it. */
  readonly #watchers = new SignalWatchers();
  readonly #now: () => number;
  readonly #generateId: () => string;

  constructor(
    adapter: ModelAdapter,
    toolRegistry: ToolRegistry,
    options: ToolOrchestratorOptions<Context, OutputSchema> = {},
  ) {
    validateOrchestratorInput(adapter, toolRegistry, options);
    this.adapter = adapter;
    this.toolRegistry = toolRegistry;
    this.#options = options;
    const now = (this.#now = options.now ?? defaultNow);
    this.#generateId = options.generateId ?? defaultGenerateId;
    this.#agent = new AgentProfile(
      this,
      adapter,
      toolRegistry,
      options as ToolOrchestratorOptions<object>,
      now,
    );
  }

  /** The agent's `name` (the `name` option), as handoffs, their events and `result.agent` use it. */
  get name(): string | undefined {
    return this.#agent.name;
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
   * (else the `instructions` option) becomes the first message unless the messages already start with one.
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
  async run<RunSchema = OutputSchema>(
    messages: readonly ChatMessage[],
    systemPrompt?: string,
    runOptions: RunOptions<Context, RunSchema> = {},
  ): Promise<RunResult<OutputOf<RunSchema>>> {
    validateRunInput(messages, systemPrompt, runOptions, this.toolRegistry, this.adapter);
    return this.#execute(messages, systemPrompt, runOptions, undefined) as Promise<
      RunResult<OutputOf<RunSchema>>
    >;
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
  stream<RunSchema = OutputSchema>(
    messages: readonly ChatMessage[],
    systemPrompt?: string,
    runOptions: RunOptions<Context, RunSchema> = {},
  ): RunStream<OutputOf<RunSchema>> {
    validateRunInput(messages, systemPrompt, runOptions, this.toolRegistry, this.adapter);
    return this.#streamOf((hooks) => this.#execute(messages, systemPrompt, runOptions, hooks));
  }

  /** A `RunStream` of the run `start` starts with the stream's hooks. */
  #streamOf<Output>(start: (hooks: StreamHooks) => Promise<RunResult>): RunStream<Output> {
    const controller = new AbortController();
    return new RunStreamFeed(
      this.#options.collectTraces ?? true,
      controller,
      ({ onEvent, onText }) =>
        start({ onEvent, onText, signal: controller.signal }) as Promise<RunResult<Output>>,
    );
  }

  /**
   * This agent as a tool another agent calls: each call is a run of this orchestrator nested in
   * the calling run, its events, usage and abort tied to it (see {@link AgentToolOptions}).
   *
   * @example
   * const research = researcher.asTool({ name: 'research', description: 'Researches a topic' });
   */
  asTool<Parameters = undefined>(options: AgentToolOptions<Parameters>): Tool {
    return agentTool(this as unknown as RunsAgent, options);
  }

  /**
   * The tools as the model sees them. Derived from the registry again when it has changed (an MCP
   * connection's registry changes in place on `tools/list_changed`), so the next model call, even
   * of a run under way, offers the current tools.
   */
  get tools(): readonly ModelToolDefinition[] {
    return this.#agent.sources.definitions.current();
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
  async resume<RunSchema = OutputSchema>(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Context, RunSchema> = {},
  ): Promise<RunResult<OutputOf<RunSchema>>> {
    validateResumeOptions(resumeOptions, this.toolRegistry);
    return this.#resume(runIdOrState, resumeOptions, undefined) as Promise<RunResult<OutputOf<RunSchema>>>;
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
  resumeStream<RunSchema = OutputSchema>(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Context, RunSchema> = {},
  ): RunStream<OutputOf<RunSchema>> {
    validateResumeOptions(resumeOptions, this.toolRegistry);
    return this.#streamOf((hooks) => this.#resume(runIdOrState, resumeOptions, hooks));
  }

  async #resume(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Context, unknown>,
    hooks: StreamHooks | undefined,
  ): Promise<RunResult> {
    const store = resumeOptions.checkpointStore ?? this.#options.checkpointStore;
    const saved = await loadSavedRun(runIdOrState, store);
    const { config, handoffs, fingerprint } = runAgent(
      this.#agent,
      resumeOptions,
      hooks !== undefined,
      saved,
    );
    if (resumeOptions.force !== true) checkFingerprint(saved, fingerprint);
    if (saved.result !== null) return recordedResult(saved, config.budget?.pricing, config.agent);
    const { runId } = saved;
    const handles = this.#live({
      runId,
      runOptions: resumeOptions,
      hooks,
      config,
      checkpointStore: store,
      saved,
      handoffs,
    });
    const settings = { guardOn: config.loopGuard !== undefined, generateId: this.#generateId };
    return driveRun(resumedRun(saved, resumeOptions.approvals, handles, settings), config);
  }

  /** The run's handles in this process: see `liveRun`. */
  #live(
    run: Pick<
      LiveRunOptions,
      'runId' | 'runOptions' | 'hooks' | 'config' | 'checkpointStore' | 'saved' | 'handoffs'
    >,
  ): RunHandles {
    const instance = { fingerprint: this.#agent.fingerprint, options: this.#options, emitter: this.#emitter };
    return liveRun({ ...run, ...instance, watchers: this.#watchers, now: this.#now });
  }

  async #execute(
    messages: readonly ChatMessage[],
    systemPrompt: string | undefined,
    runOptions: RunOptions<Context, unknown>,
    hooks: StreamHooks | undefined,
  ): Promise<RunResult> {
    const { config, handoffs } = runAgent(this.#agent, runOptions, hooks !== undefined);
    const context = config.context as { requestId?: unknown };
    const store = runOptions.checkpointStore ?? this.#options.checkpointStore;
    const runId = runOptions.runId ?? this.#generateId();
    if (runOptions.runId !== undefined) await checkNewRunId(runId, store);
    const handles = this.#live({
      runId,
      runOptions,
      hooks,
      config,
      checkpointStore: store,
      saved: undefined,
      handoffs,
    });
    const requestId = typeof context.requestId === 'string' ? context.requestId : this.#generateId();
    const transcript = withSystemPrompt(messages, systemPrompt ?? this.#options.instructions);
    const guardOn = config.loopGuard !== undefined;
    return driveRun(startRunState({ runId, requestId, messages: transcript, guardOn }, handles), config);
  }
}
