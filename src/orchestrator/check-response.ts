import { describeThrown, describeValue, kindOf } from '../errors/describe-value.js';
import { UnexpectedResponseError } from '../errors/unexpected-response-error.js';
import type { ToolCall } from '../model/messages.js';
import type { ModelResponse } from '../model/model-adapter.js';
import { argumentsTypeMessage } from '../tools/parse-arguments.js';
import { providerDataProblem, reasoningProblem } from '../model/provider-data-shape.js';

/** A response the loop can use, and the calls it must answer with an error instead of running. */
export interface CheckedResponse {
  readonly response: ModelResponse;
  /** The model-facing error of each call that is answered but not run, by call index. */
  readonly rejectedCalls: ReadonlyMap<number, string> | undefined;
}

/**
 * Checks what an adapter resolved to before anything reaches the transcript, so an adapter that
 * breaks the `ModelAdapter` contract can never leave a call unanswered or the transcript invalid.
 *
 * - A response the transcript cannot hold throws `UnexpectedResponseError`: not an object,
 *   `content` or `reasoning_content` neither a string nor null, `tool_calls` not an array, or a
 *   call that is not an object, has no `function` object, a `function.name` that is not a string,
 *   or an `id` that is neither a string nor absent; `reasoning` not an array of reasoning parts, or a
 *   `providerData` (of the response or a call) not an object of objects.
 * - A call with a usable id and name but `arguments` that are not a string (an object, a number)
 *   is kept with its arguments as text and answered with an `invalid_tool_call` tool error.
 * - `tool_calls: null` means none; a `null` or missing id is generated later, as an empty one is;
 *   `null` or missing arguments become `''`.
 *
 * A valid response is returned as it is; only a response that needs mending is copied.
 *
 * @throws {UnexpectedResponseError} when the response cannot be used; `rawOutput` holds it.
 */
export function checkResponse(value: unknown, provider: string): CheckedResponse {
  let checked: CheckedResponse | string;
  try {
    checked = inspect(value);
  } catch (error) {
    // A Proxy or a getter that throws: the response has no shape we can rely on.
    checked = `returned a response whose fields could not be read (${describeThrown(error)})`;
  }
  if (typeof checked !== 'string') return checked;
  throw new UnexpectedResponseError({
    provider,
    rawOutput: value,
    message: `The model adapter "${provider}" ${checked}. A ModelAdapter must resolve to { content: string | null, tool_calls?: [{ id: string, type: 'function', function: { name: string, arguments: string } }] } (see docs/adapters.md); this is a bug in the adapter, or in what its provider sent.`,
  });
}

/** The checked response, or what is wrong with it. */
function inspect(value: unknown): CheckedResponse | string {
  if (!isRecord(value)) return `resolved to ${shown(value)}, not a response object`;
  const response = value as unknown as ModelResponse;
  const content: unknown = response.content;
  if (content != null && typeof content !== 'string') return field('content', content, 'a string or null');
  const reasoning: unknown = response.reasoning_content;
  if (reasoning != null && typeof reasoning !== 'string') {
    return field('reasoning_content', reasoning, 'a string or null');
  }
  // Reasoning parts and provider data are the provider's: only their outer shape is checked.
  if (response.reasoning !== undefined) {
    const problem = reasoningProblem(response.reasoning);
    if (problem !== undefined) return field(`reasoning${problem.path}`, response.reasoning, problem.expected);
  }
  const warnings: unknown = response.warnings;
  if (warnings !== undefined) {
    if (!Array.isArray(warnings)) return field('warnings', warnings, 'an array of { code, message }');
    for (const [index, warning] of warnings.entries()) {
      if (!isRecord(warning) || typeof warning['code'] !== 'string' || typeof warning['message'] !== 'string')
        return field(`warnings[${index}]`, warning, 'an object { code: string, message: string }');
    }
  }
  const dataProblem = providerDataProblem(response.providerData);
  if (dataProblem !== undefined) {
    return field(`providerData${dataProblem.path}`, response.providerData, dataProblem.expected);
  }
  const toolCalls: unknown = response.tool_calls;
  if (toolCalls == null) return { response, rejectedCalls: undefined };
  if (!Array.isArray(toolCalls)) return field('tool_calls', toolCalls, 'an array');
  let mend: number[] | undefined;
  for (let index = 0; index < toolCalls.length; index++) {
    // Runs once per call on the hot path: no strings are built unless something is wrong.
    const toolCall: unknown = toolCalls[index];
    if (!isRecord(toolCall)) return field(`tool_calls[${index}]`, toolCall, 'a tool call object');
    const id = toolCall['id'];
    if (id != null && typeof id !== 'string') return field(`tool_calls[${index}].id`, id, 'a string');
    const fn = toolCall['function'];
    if (!isRecord(fn)) {
      return field(`tool_calls[${index}].function`, fn, 'an object with name and arguments');
    }
    const name = fn['name'];
    if (typeof name !== 'string') return field(`tool_calls[${index}].function.name`, name, 'a string');
    const callData = providerDataProblem(toolCall['providerData']);
    if (callData !== undefined) {
      return field(
        `tool_calls[${index}].providerData${callData.path}`,
        toolCall['providerData'],
        callData.expected,
      );
    }
    if (typeof fn['arguments'] !== 'string') (mend ??= []).push(index);
  }
  if (mend === undefined) return { response, rejectedCalls: undefined };
  return mendArguments(response, toolCalls as readonly ToolCall[], mend);
}

/** Copies the response with every call's arguments as text; calls whose arguments were not null are rejected. */
function mendArguments(
  response: ModelResponse,
  toolCalls: readonly ToolCall[],
  indexes: readonly number[],
): CheckedResponse {
  const mended = [...toolCalls];
  const rejectedCalls = new Map<number, string>();
  for (const index of indexes) {
    const toolCall = toolCalls[index]!;
    const raw: unknown = toolCall.function.arguments;
    if (raw != null) rejectedCalls.set(index, argumentsTypeMessage(toolCall.function.name, raw));
    const text = raw == null ? '' : describeValue(raw, Number.POSITIVE_INFINITY);
    mended[index] = { ...toolCall, function: { ...toolCall.function, arguments: text } };
  }
  return {
    response: { ...response, tool_calls: mended },
    rejectedCalls: rejectedCalls.size === 0 ? undefined : rejectedCalls,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(path: string, value: unknown, expected: string): string {
  return `sent a response whose ${path} is ${shown(value)}, not ${expected}`;
}

function shown(value: unknown): string {
  return value == null ? String(value) : `${kindOf(value)} (${describeValue(value)})`;
}
