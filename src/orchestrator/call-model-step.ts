import type { ChatMessage } from '../model/messages.js';
import type {
  ModelCallOptions,
  ModelResponse,
  ModelToolDefinition,
  ToolChoice,
} from '../model/model-adapter.js';
import { addUsage } from '../model/usage.js';
import { reasoningText } from '../model/reasoning-text.js';
import { ContextLengthError } from '../errors/context-length-error.js';
import { checkResponse } from './check-response.js';
import type { CheckedResponse } from './check-response.js';
import { raceAbort } from './race-abort.js';
import { readModelStream } from './read-model-stream.js';
import type { ContextRequest } from './context-window/context-request.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import { llmCallData } from './llm-call-data.js';

/** What one model call sends: the turn's messages, tools and tool choice. */
export interface CallModelOptions {
  /** The transcript, or what `prepareTurn` returned; the context window (when on) reduces what is sent. */
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  /** Sent when set; a final answer call without one sends `'none'`. */
  readonly toolChoice: ToolChoice | undefined;
  /** An extra call with tools disabled: after `maxTurns`, or for the typed output. */
  readonly finalAnswer: boolean;
  /** Aborts this call; one that follows the run's signal (parallel input guardrails). @default the run's signal */
  readonly signal?: AbortSignal;
}

/**
 * Calls the model once (streaming or not), checks the response against the adapter contract,
 * records usage and emits `llm_call` and `reasoning_content`. With a signal, an abort ends the step
 * at once, even when the adapter ignores the signal.
 *
 * With `contextWindow` on, what is sent is reduced first when it would pass the limit, and a
 * provider's `ContextLengthError` is answered once by reducing further (to the window the provider
 * named, when it named one) and calling again. The window's work is done here, in the step's own
 * async frame, so a call within the window waits on nothing more than a call without it.
 *
 * @throws {UnexpectedResponseError} when the adapter broke its contract (see `checkResponse`).
 * @throws {AbortedError} when the signal aborts first.
 * @throws {ContextLengthError} when the retry is refused too, or nothing more could be taken out.
 */
export async function callModelStep(
  state: RunState,
  config: RunConfig,
  options: CallModelOptions,
): Promise<CheckedResponse> {
  const { adapter, now } = config;
  const output = config.output;
  // In tool mode the final-answer tool is offered beside the others on every turn.
  const tools =
    output?.mode === 'tool' && !options.finalAnswer ? [...options.tools, output.tool] : options.tools;
  const signal = options.signal ?? state.signal;
  const toolChoice = options.finalAnswer && options.toolChoice === undefined ? 'none' : options.toolChoice;
  const callOptions: ModelCallOptions = {
    ...(signal === undefined ? {} : { signal }),
    ...(toolChoice === undefined ? {} : { toolChoice }),
    ...(output?.mode === 'native' ? { responseFormat: output.responseFormat } : {}),
  };
  const provider = adapter.provider ?? 'unknown';
  const contextWindow = state.contextWindow;
  // The window and what it plans this call from, made only when the window is on.
  const windowed =
    contextWindow === undefined
      ? undefined
      : {
          window: contextWindow,
          request: {
            transcript: state.messages,
            messages: options.messages,
            tools,
            turn: state.turns,
            countUsage: (usage) => {
              state.usage = addUsage(state.usage, usage);
            },
          } satisfies ContextRequest,
        };
  let messages = options.messages;
  // The transcript array only grows, so a prefix of it is snapshotted lazily (so is the context
  // window's sent view); messages from `prepareTurn` are already a copy of their own.
  let messagesGrow = messages === state.messages;
  let contextTokens: number | undefined;
  if (windowed !== undefined) {
    const plan = await windowed.window.plan(windowed.request);
    messages = plan.messages;
    messagesGrow = true;
    contextTokens = plan.tokens;
  }
  let started: number;
  let messageCount: number;
  let raw: unknown;
  for (let attempt = 0; ; attempt++) {
    messageCount = messages.length;
    started = now();
    try {
      if (config.stream) {
        raw = await readModelStream(state, adapter, messages, tools, callOptions, provider, signal);
      } else {
        raw = await raceAbort(adapter.call(messages, tools, callOptions), signal);
      }
      break;
    } catch (error) {
      if (windowed === undefined || attempt > 0 || !ContextLengthError.isInstance(error)) throw error;
      const plan = await windowed.window.recover(error, windowed.request);
      if (plan === undefined) throw error;
      messages = plan.messages;
      contextTokens = plan.tokens;
    }
  }
  const durationMs = now() - started;
  const checked = checkResponse(raw, provider);
  const response: ModelResponse = checked.response;
  state.turns++;
  state.usage = addUsage(state.usage, response.usage);
  state.lastResponse = response;
  if (contextTokens !== undefined) contextWindow?.record(contextTokens, response.usage);
  const data = llmCallData({
    provider: adapter.provider,
    model: adapter.model,
    sent: messages,
    sentGrows: messagesGrow,
    messageCount,
    response,
    durationMs,
    finalAnswer: options.finalAnswer,
    contextTokens,
  });
  state.trace.emit('llm_call', data);
  for (const warning of response.warnings ?? []) {
    state.trace.emit('warning', { code: warning.code, message: warning.message });
  }
  const reasoning = reasoningText(response);
  if (reasoning !== '') state.trace.emit('reasoning_content', { content: reasoning });
  // Streamed content reached `onText` delta by delta.
  if (
    !config.stream &&
    state.onText !== undefined &&
    typeof response.content === 'string' &&
    response.content !== ''
  ) {
    state.onText(response.content);
  }
  return checked;
}
