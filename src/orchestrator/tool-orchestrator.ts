import { EventEmitter } from 'eventemitter3';
import { isAbortError } from '../errors/aborted-error.js';
import { describeThrown, errorCode, errorName } from '../errors/describe-value.js';
import { MaxTurnsExceededError } from '../errors/max-turns-exceeded-error.js';
import type { ChatMessage } from '../model/messages.js';
import type { ModelAdapter, ModelToolDefinition } from '../model/model-adapter.js';
import { emptyUsage } from '../model/usage.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { ToolRunner } from '../tools/tool-runner.js';
import { TraceDispatcher } from '../tracing/trace-dispatcher.js';
import type { StopReason, TraceEventOf, TraceEventType } from '../tracing/trace-events.js';
import { callModelStep } from './call-model-step.js';
import { assistantMessage, executeToolsStep } from './execute-tools-step.js';
import type { OnMaxTurns, RunOptions, RunResult, ToolOrchestratorOptions } from './orchestrator-options.js';
import type { RunState } from './run-state.js';
import type { StopCondition } from './stop-conditions.js';
import { modelToolDefinitions, validateOrchestratorInput } from './validate-options.js';

const defaultNow = (): number => performance.timeOrigin + performance.now();
const defaultGenerateId = (): string => globalThis.crypto.randomUUID();

/**
 * Runs the tool-calling loop: call the model, execute its tool calls, append the results,
 * repeat until the model answers without tools, a stop condition holds, `maxTurns` is reached
 * or the run is aborted. Runs are stateless: one instance can serve many runs at once.
 *
 * @example
 * const orchestrator = new ToolOrchestrator(adapter, { add }, { maxTurns: 10 });
 * const { content } = await orchestrator.run([{ role: 'user', content: 'What is 2+3?' }]);
 */
export class ToolOrchestrator<Context extends object = Record<string, unknown>> {
  readonly adapter: ModelAdapter;
  readonly toolRegistry: ToolRegistry;
  /** The tools as the model sees them, derived once from the registry. */
  readonly tools: readonly ModelToolDefinition[];
  readonly #options: ToolOrchestratorOptions<Context>;
  readonly #runner: ToolRunner;
  readonly #emitter = new EventEmitter();
  readonly #stopConditions: readonly StopCondition[];
  readonly #now: () => number;
  readonly #generateId: () => string;

  constructor(
    adapter: ModelAdapter,
    toolRegistry: ToolRegistry,
    options: ToolOrchestratorOptions<Context> = {},
  ) {
    validateOrchestratorInput(adapter, toolRegistry, options);
    this.adapter = adapter;
    this.toolRegistry = toolRegistry;
    this.tools = modelToolDefinitions(toolRegistry);
    this.#options = options;
    this.#now = options.now ?? defaultNow;
    this.#generateId = options.generateId ?? defaultGenerateId;
    this.#runner =
      options.toolRunner ??
      new ToolRunner(toolRegistry, {
        ...(options.maxToolResultChars === undefined ? {} : { maxResultChars: options.maxToolResultChars }),
        now: this.#now,
      });
    const stopWhen = options.stopWhen;
    this.#stopConditions =
      stopWhen === undefined ? [] : typeof stopWhen === 'function' ? [stopWhen] : stopWhen;
  }

  /** Listens to one event type of every run; `'*'` listens to all. A throwing listener never breaks a run. */
  on<Type extends TraceEventType>(type: Type | '*', listener: (event: TraceEventOf<Type>) => void): this {
    this.#emitter.on(type, listener);
    return this;
  }

  /** Removes a listener added with `on`. */
  off<Type extends TraceEventType>(type: Type | '*', listener: (event: TraceEventOf<Type>) => void): this {
    this.#emitter.off(type, listener);
    return this;
  }

  /**
   * Runs the loop on a copy of `messages` (the caller's array is never changed). A system prompt
   * becomes the first message unless the messages already start with one.
   *
   * @throws {MaxTurnsExceededError} only with `onMaxTurns: 'throw'`.
   * @throws {UnexpectedResponseError} when the adapter resolves to a response outside its contract.
   * @throws the adapter's error when the model call fails (tool failures never throw).
   */
  async run(
    messages: readonly ChatMessage[],
    systemPrompt?: string,
    runOptions: RunOptions<Context> = {},
  ): Promise<RunResult> {
    const options = this.#options;
    const maxTurns = runOptions.maxTurns ?? options.maxTurns ?? 10;
    const onMaxTurns: OnMaxTurns = options.onMaxTurns ?? 'return';
    const context = (runOptions.context ?? options.context ?? {}) as Context & { requestId?: unknown };
    const runId = this.#generateId();
    const signal = combineSignals(options.signal, runOptions.signal);
    const parentRunId = runOptions.parentRunId ?? options.parentRunId;
    const trace = new TraceDispatcher({
      runId,
      ...(parentRunId === undefined ? {} : { parentRunId }),
      collect: options.collectTraces ?? true,
      ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
      emitter: this.#emitter,
      now: this.#now,
      ...(options.onTraceError === undefined ? {} : { onSinkError: options.onTraceError }),
    });
    const transcript: ChatMessage[] =
      systemPrompt !== undefined && messages[0]?.role !== 'system'
        ? [{ role: 'system', content: systemPrompt }, ...messages]
        : [...messages];
    const state: RunState = {
      runId,
      requestId: typeof context.requestId === 'string' ? context.requestId : this.#generateId(),
      messages: transcript,
      trace,
      signal,
      startedAt: this.#now(),
      toolCallIds: new Set(),
      turns: 0,
      usage: emptyUsage,
      lastResponse: undefined,
    };
    trace.emit('run_start', {
      messageCount: transcript.length,
      toolNames: Object.keys(this.toolRegistry),
      maxTurns,
      requestId: state.requestId,
    });
    let stopReason: StopReason;
    try {
      stopReason = await this.#loop(state, maxTurns, context);
      if (stopReason === 'max_turns') {
        trace.emit('warning', {
          code: 'max_turns',
          message: `The run reached maxTurns (${maxTurns}) while the model was still calling tools.`,
        });
        if (onMaxTurns === 'final_answer' && !signal?.aborted) await this.#finalAnswer(state);
      }
    } catch (error) {
      if (!isAbortError(error, signal)) {
        // Whatever was thrown (a Proxy, an object with no prototype), describing it must not throw.
        const code = errorCode(error);
        trace.emit('error', {
          name: errorName(error),
          message: describeThrown(error),
          ...(code === undefined ? {} : { code }),
        });
        this.#emitEnd(state, 'error');
        throw error;
      }
      stopReason = 'aborted';
    }
    this.#emitEnd(state, stopReason);
    const result = this.#result(state, stopReason);
    if (stopReason === 'max_turns' && onMaxTurns === 'throw')
      throw new MaxTurnsExceededError({ maxTurns, result });
    return result;
  }

  async #loop(state: RunState, maxTurns: number, context: object): Promise<StopReason> {
    const stream = this.#options.stream ?? false;
    while (state.turns < maxTurns) {
      if (state.signal?.aborted) return 'aborted';
      state.trace.turn = state.turns;
      const { response, rejectedCalls } = await callModelStep(state, {
        adapter: this.adapter,
        tools: this.tools,
        stream,
        now: this.#now,
        finalAnswer: false,
      });
      if ((response.tool_calls?.length ?? 0) === 0) {
        if (response.finish_reason === 'length') {
          state.trace.emit('warning', {
            code: 'length',
            message: 'The model stopped at its token limit; the answer may be cut short.',
          });
        }
        state.messages.push(assistantMessage(response));
        return 'final';
      }
      if (response.finish_reason === 'length') {
        state.trace.emit('warning', {
          code: 'truncated_tool_call',
          message:
            'The model stopped at its token limit while writing tool calls; their arguments may be cut short and fail to parse.',
        });
      }
      const executed = await executeToolsStep(state, response, {
        rejectedCalls,
        registry: this.toolRegistry,
        runner: this.#runner,
        context,
        concurrency: this.#options.toolConcurrency ?? 1,
      });
      if (state.signal?.aborted) return 'aborted';
      for (const condition of this.#stopConditions) {
        if (
          condition({
            turn: state.trace.turn,
            response,
            toolCalls: executed.toolCalls,
            outcomes: executed.outcomes,
            messages: state.messages,
          })
        ) {
          return 'stop_condition';
        }
      }
    }
    return 'max_turns';
  }

  /** One last call with tools disabled; tool calls the model makes anyway are dropped from the transcript. */
  async #finalAnswer(state: RunState): Promise<void> {
    state.trace.turn = state.turns;
    const prompt = this.#options.finalAnswerPrompt;
    if (prompt !== undefined) state.messages.push({ role: 'user', content: prompt });
    const { response } = await callModelStep(state, {
      adapter: this.adapter,
      tools: this.tools,
      stream: this.#options.stream ?? false,
      now: this.#now,
      finalAnswer: true,
    });
    if ((response.tool_calls?.length ?? 0) > 0) {
      state.trace.emit('warning', {
        code: 'final_answer_tool_calls',
        message:
          'The model asked for tools on the final answer call, where tools are disabled; those calls were not run and are left out of the transcript (they are in the llm_call event).',
      });
    }
    state.messages.push(assistantMessage(response, []));
  }

  #emitEnd(state: RunState, stopReason: StopReason | 'error'): void {
    state.trace.emit('run_end', {
      stopReason,
      turns: state.turns,
      usage: state.usage,
      durationMs: this.#now() - state.startedAt,
    });
  }

  #result(state: RunState, stopReason: StopReason): RunResult {
    return {
      content: stopReason === 'aborted' ? '' : (state.lastResponse?.content ?? ''),
      traces: state.trace.traces,
      messages: state.messages,
      stopReason,
      turns: state.turns,
      usage: state.usage,
      runId: state.runId,
    };
  }
}

function combineSignals(
  first: AbortSignal | undefined,
  second: AbortSignal | undefined,
): AbortSignal | undefined {
  if (first === undefined) return second;
  if (second === undefined) return first;
  return AbortSignal.any([first, second]);
}
