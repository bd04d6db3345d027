import type { ToolCall } from '../model/messages.js';
import { describeThrown, kindOf } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Tool, ToolExecutionContext, ToolRegistry } from './define-tool.js';
import { SignalWatchers } from '../shared/signal-watchers.js';
import { defaultDurationClock } from '../shared/runtime-defaults.js';
import { parseArguments } from './parse-arguments.js';
import { capContent, errorContent, serializeResult } from './serialize-result.js';
import type { ToolCallOutcome, ToolCallRefusal, ToolErrorCode } from './tool-call-outcome.js';

/** Options of {@link ToolRunner}. */
export interface ToolRunnerOptions {
  /** Milliseconds before a call without its own `timeoutMs` times out. @default undefined (no timeout) */
  readonly defaultTimeoutMs?: number;
  /** How many of one turn's calls run at once; results stay in call order. @default 1 */
  readonly concurrency?: number;
  /**
   * Tool message content, or a tool's error message, longer than this is cut, with a marker saying
   * how much. @default 100_000
   */
  readonly maxResultChars?: number;
  /** Clock for `durationMs`. @default performance.now (`Date.now` where there is no `performance`) */
  readonly now?: () => number;
}

/** What every call of one batch shares: the caller's context plus the run's ids and signal. */
export type ToolBatchContext<Context extends object = Record<string, unknown>> = Omit<
  ToolExecutionContext<Context>,
  'toolCallId' | 'signal'
> & { readonly signal?: AbortSignal };

/** Per-batch overrides and hooks. */
export interface ExecuteToolCallsOptions {
  /** Overrides the runner's `concurrency` for this batch. */
  readonly concurrency?: number;
  /**
   * Called right before each call starts, in call order; a returned refusal answers the call with
   * that error instead of running it. The orchestrator refuses calls once a budget's time is spent.
   */
  readonly beforeCall?: (toolCall: ToolCall, index: number) => ToolCallRefusal | undefined;
  /**
   * Called when a call is answered as aborted or timed out while its `execute` is still running,
   * with a promise that settles when `execute` does. The orchestrator waits on these after an abort.
   */
  readonly onAbandoned?: (toolCall: ToolCall, settled: Promise<void>) => void;
  /**
   * Called with each call's outcome as soon as it is known, before the call's worker takes the
   * next call; a returned promise is awaited first. The orchestrator saves a checkpoint here.
   */
  readonly onOutcome?: (outcome: ToolCallOutcome, index: number) => void | Promise<void>;
}

const defaultMaxResultChars = 100_000;

/** What the calls of one `executeToolCalls` share. */
interface Batch<Context extends object> {
  readonly registry: ToolRegistry;
  readonly context: ToolBatchContext<Context>;
  readonly options: ExecuteToolCallsOptions;
  /** Made when the batch has a signal to watch. */
  readonly watchers: SignalWatchers | undefined;
}

/**
 * Executes tool calls. It never throws for a tool's or the model's fault: an unknown tool,
 * bad JSON, arguments that fail the schema, a throwing tool, a timeout or an abort each become
 * an error outcome the model can act on.
 */
export class ToolRunner {
  readonly registry: ToolRegistry;
  readonly #defaultTimeoutMs: number | undefined;
  readonly #concurrency: number;
  readonly #maxResultChars: number;
  readonly #now: () => number;

  constructor(registry: ToolRegistry, options: ToolRunnerOptions = {}) {
    this.registry = registry;
    this.#defaultTimeoutMs = checkPositive('defaultTimeoutMs', options.defaultTimeoutMs);
    this.#concurrency = checkPositiveInteger('concurrency', options.concurrency) ?? 1;
    this.#maxResultChars =
      checkPositiveInteger('maxResultChars', options.maxResultChars) ?? defaultMaxResultChars;
    this.#now = options.now ?? defaultDurationClock;
  }

  /** Runs `toolCalls` and resolves to one outcome per call, in call order. */
  async executeToolCalls<Context extends object>(
    registry: ToolRegistry,
    toolCalls: readonly ToolCall[],
    context: ToolBatchContext<Context>,
    options: ExecuteToolCallsOptions = {},
  ): Promise<ToolCallOutcome[]> {
    const concurrency = Math.max(1, Math.min(options.concurrency ?? this.#concurrency, toolCalls.length));
    const outcomes = new Array<ToolCallOutcome>(toolCalls.length);
    // The batch's calls watch the run's signal through one listener, however many run at once.
    const batch: Batch<Context> = {
      registry,
      context,
      options,
      watchers: context.signal === undefined ? undefined : new SignalWatchers(),
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < toolCalls.length) {
        const index = next++;
        outcomes[index] = await this.#executeOne(batch, toolCalls[index]!, index);
        if (options.onOutcome !== undefined) await options.onOutcome(outcomes[index]!, index);
      }
    };
    // A worker pool of `concurrency` workers taking calls in order: eight lines, no dependency.
    if (concurrency === 1) await worker();
    else await Promise.all(Array.from({ length: concurrency }, worker));
    return outcomes;
  }

  async #executeOne<Context extends object>(
    batch: Batch<Context>,
    toolCall: ToolCall,
    index: number,
  ): Promise<ToolCallOutcome> {
    const { registry, context, options } = batch;
    const started = this.#now();
    // Checked, not trusted: a caller may hand the runner calls straight from a buggy adapter.
    const toolCallId: unknown = toolCall?.id;
    const rawName: unknown = toolCall?.function?.name;
    const name = typeof rawName === 'string' ? rawName : '';
    const fail = (code: ToolErrorCode, message: string): ToolCallOutcome => {
      // A thrown message can be as large as a result (a tool that quotes its input): cut it alike.
      const error = capContent(message, this.#maxResultChars);
      return {
        toolCallId: typeof toolCallId === 'string' ? toolCallId : '',
        name,
        error,
        errorCode: code,
        content: errorContent(error),
        durationMs: this.#now() - started,
      };
    };
    if (context.signal?.aborted) return fail('aborted', 'The run was aborted before this tool call ran.');
    const refusal = options.beforeCall?.(toolCall, index);
    if (refusal !== undefined) return fail(refusal.errorCode, refusal.error);
    if (typeof rawName !== 'string') {
      return fail(
        'invalid_tool_call',
        `This tool call has no function name (function.name is ${kindOf(rawName)}), so it was not run (the model adapter broke its contract). Call a tool by its exact name.`,
      );
    }
    const tool = Object.hasOwn(registry, name) ? registry[name] : undefined;
    if (tool === undefined) return fail('unknown_tool', unknownToolMessage(name, registry));
    const parsed = parseArguments(tool, toolCall.function.arguments);
    if (!parsed.ok) return fail(parsed.code, parsed.error);
    let result: unknown;
    try {
      result = await this.#invoke(tool, parsed.value, toolCall, batch);
    } catch (error) {
      if (isInterruption(error)) return fail(error.code, error.message);
      return fail('tool_error', `${toolFailedPrefix(name)}${describeThrown(error)}`);
    }
    const serialized = serializeResult(result);
    if (!serialized.ok) return fail('unserializable_result', serialized.error);
    return {
      toolCallId: toolCall.id,
      name,
      result,
      content: capContent(serialized.content, this.#maxResultChars),
      durationMs: this.#now() - started,
    };
  }

  #invoke<Context extends object>(
    tool: Tool,
    input: unknown,
    toolCall: ToolCall,
    batch: Batch<Context>,
  ): unknown {
    const { context, options } = batch;
    const timeoutMs = tool.timeoutMs ?? this.#defaultTimeoutMs;
    const runSignal = context.signal;
    // Only calls that can time out pay for a controller of their own; the others get the run's
    // signal itself (or one that never aborts).
    const controller = timeoutMs === undefined ? undefined : new AbortController();
    const returned: unknown = tool.execute(
      input,
      callContext(context, toolCall.id, controller?.signal ?? runSignal ?? neverAborted),
    );
    // A synchronous tool has finished: there is nothing left to interrupt or time out.
    if (!isPromiseLike(returned)) return returned;
    if (timeoutMs === undefined && runSignal === undefined) return returned;
    const onAbandoned = options.onAbandoned;
    const executing = Promise.resolve(returned);
    return new Promise<unknown>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let stopWatching: (() => void) | undefined;
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        stopWatching?.();
      };
      const abandon = (): void => onAbandoned?.(toolCall, executing.then(ignore, ignore));
      if (controller !== undefined) {
        timer = setTimeout(() => {
          cleanup();
          const message = `Tool "${tool.name}" timed out after ${timeoutMs} ms. Try a smaller request, or a different approach.`;
          controller.abort(new ToolInterruption('timeout', message));
          reject(new ToolInterruption('timeout', message));
          abandon();
        }, timeoutMs);
      }
      if (runSignal !== undefined) {
        stopWatching = batch.watchers?.watch(runSignal, () => {
          cleanup();
          controller?.abort(runSignal.reason);
          reject(new ToolInterruption('aborted', 'The run was aborted while this tool call was running.'));
          abandon();
        });
      }
      executing.then(
        (value) => {
          cleanup();
          resolve(value);
        },
        (error: unknown) => {
          cleanup();
          reject(error);
        },
      );
    });
  }
}

/** True for a promise or any other thenable (a tool may return either). */
function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

class ToolInterruption extends Error {
  constructor(
    readonly code: 'timeout' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}

function isInterruption(error: unknown): error is ToolInterruption {
  try {
    return error instanceof ToolInterruption;
  } catch {
    return false; // A thrown Proxy whose getPrototypeOf trap throws.
  }
}

/**
 * How the runner starts the message of a `tool_error` (a tool that threw), before the thrown
 * message: `Tool "name" failed: `. The MCP server strips it, so a caller that adds its own does
 * not say it twice.
 */
export function toolFailedPrefix(name: string): string {
  return `Tool "${name}" failed: `;
}

/** The model-facing error of a call to a tool the registry does not have. */
export function unknownToolMessage(name: string, registry: ToolRegistry): string {
  const available = Object.keys(registry);
  return `Unknown tool "${name}". Available tools: ${available.length === 0 ? '(none)' : available.join(', ')}. Call one of these by its exact name.`;
}

const neverAborted: AbortSignal = new AbortController().signal;

const ignore = (): void => {};

/**
 * One call's context: the batch's context with the call's id and signal. `Object.assign`: V8 copied
 * the batch context with a spread several times slower, the loop's largest cost (docs/benchmarks.md).
 */
function callContext(context: object, toolCallId: string, signal: AbortSignal): ToolExecutionContext {
  return Object.assign({}, context, { toolCallId, signal }) as ToolExecutionContext;
}

function checkPositive(argument: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: 'must be a positive number of milliseconds, or left out.',
    });
  }
  return value;
}

function checkPositiveInteger(argument: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({ argument, value, message: 'must be a positive integer, or left out.' });
  }
  return value;
}
