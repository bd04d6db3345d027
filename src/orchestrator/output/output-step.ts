import { StructuredOutputError } from '../../errors/structured-output-error.js';
import type { ToolCall } from '../../model/messages.js';
import type { ModelResponse } from '../../model/model-adapter.js';
import { formatIssues } from '../../tools/schema.js';
import type { SchemaIssue } from '../../tools/schema.js';
import { errorContent } from '../../tools/serialize-result.js';
import { assistantMessage, uniqueToolCalls } from '../assistant-message.js';
import { callModelStep } from '../call-model-step.js';
import { prepareTurnStep } from '../prepare-turn-step.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import type { ResolvedOutput } from './output-options.js';
import { parseJsonOutput } from './parse-json-output.js';

/**
 * How the run gets its typed output. The model's answer is read (the JSON text in native mode,
 * the final-answer tool's arguments in tool mode) and validated; when it does not match, one
 * repair call shows the model what is wrong (unless the output's `repair` is off), and a second
 * miss throws `StructuredOutputError`.
 * Every call here is made with the tools off (in tool mode, only the final-answer tool, forced).
 */

/** One answer read against the schema. */
type Reading =
  | { readonly valid: true; readonly value: unknown }
  | { readonly valid: false; readonly raw: string; readonly issues: readonly SchemaIssue[] };

/**
 * The run ended with an answer and no tool calls: reads the output from its text (the response
 * is already in the transcript). In tool mode a text that is not valid JSON for the schema is not
 * an error yet: one call with the final-answer tool forced asks for it (with `repair` off, it is).
 *
 * @throws {StructuredOutputError} when the answer and its repair both miss the schema.
 */
export async function outputFromAnswer(
  state: RunState,
  config: RunConfig,
  response: ModelResponse,
): Promise<void> {
  const output = config.output!;
  const reading = readJson(output, response.content ?? '');
  if (reading.valid) return keep(state, reading.value);
  if (output.mode === 'native' || !output.repair) {
    await repair(state, config, reading, 1);
    return;
  }
  await settle(state, config, await callForOutput(state, config), 1);
}

/** The turn's call of the final-answer tool (tool mode only), if it made one. */
export function finalAnswerCall(output: ResolvedOutput, response: ModelResponse): ToolCall | undefined {
  if (output.mode !== 'tool') return undefined;
  return response.tool_calls?.find((toolCall) => toolCall.function.name === output.name);
}

/**
 * The turn called the final-answer tool (tool mode): keeps that call alone (the others are not
 * run, with a warning), answers it, and reads the output from its arguments.
 *
 * @throws {StructuredOutputError} when the arguments and their repair both miss the schema.
 */
export async function outputFromToolCall(
  state: RunState,
  config: RunConfig,
  response: ModelResponse,
  finalCall: ToolCall,
): Promise<void> {
  const output = config.output!;
  const toolCalls = response.tool_calls ?? [];
  if (toolCalls.length > 1) {
    state.trace.emit('warning', {
      code: 'output_with_tool_calls',
      message: `The model called other tools (${toolCalls
        .filter((toolCall) => toolCall !== finalCall)
        .map((toolCall) => toolCall.function.name)
        .join(
          ', ',
        )}) in the turn it gave its final answer with ${output.name}: they were not run and are left out of the transcript (they are in the llm_call event).`,
    });
  }
  await settle(state, config, answerFinalCall(state, response, finalCall, output), 0);
}

/**
 * The run ended without a final answer (`maxTurns`, a stop condition, the loop guard, a budget
 * limit that is not a spend limit): one call with the tools off asks for the output.
 *
 * @throws {StructuredOutputError} when that answer and its repair both miss the schema.
 */
export async function outputAfterCutShort(state: RunState, config: RunConfig): Promise<void> {
  if (config.finalAnswerPrompt !== undefined) {
    state.messages.push({ role: 'user', content: config.finalAnswerPrompt });
  }
  await settle(state, config, await callForOutput(state, config), 0);
}

/** Keeps a valid reading; repairs an invalid one once (`repairs` made so far), then throws. */
async function settle(state: RunState, config: RunConfig, reading: Reading, attempts: number): Promise<void> {
  if (reading.valid) {
    keep(state, reading.value);
    return;
  }
  await repair(state, config, reading, attempts + 1);
}

/**
 * The repair call after `attempts` answers, the last of them `reading`; throws when it misses too,
 * or at once when the output's `repair` is off.
 */
async function repair(
  state: RunState,
  config: RunConfig,
  reading: Reading & { valid: false },
  attempts: number,
): Promise<void> {
  if (!config.output!.repair) {
    throw new StructuredOutputError({
      schemaName: config.output!.name,
      rawOutput: reading.raw,
      issues: reading.issues,
      attempts,
    });
  }
  state.trace.emit('warning', {
    code: 'output_invalid',
    message: `The model's output did not match the output schema; one repair call shows it what is wrong:\n${formatIssues(reading.issues)}`,
  });
  // A final-answer call was answered with the issues already; a text answer gets them as a message.
  if (state.messages.at(-1)?.role !== 'tool') {
    state.messages.push({
      role: 'user',
      content: `Your answer does not match the required JSON schema:\n${formatIssues(reading.issues)}\nAnswer again with only the corrected JSON.`,
    });
  }
  const again = await callForOutput(state, config);
  if (again.valid) {
    keep(state, again.value);
    return;
  }
  throw new StructuredOutputError({
    schemaName: config.output!.name,
    rawOutput: again.raw,
    issues: again.issues,
    attempts: attempts + 1,
  });
}

/** One call for the output with the tools off; its answer goes into the transcript and is read. */
async function callForOutput(state: RunState, config: RunConfig): Promise<Reading> {
  const output = config.output!;
  state.trace.turn = state.turns;
  const plan = await prepareTurnStep(state, config, true);
  const native = output.mode === 'native';
  const { response } = await callModelStep(state, config, {
    messages: plan.messages,
    tools: native ? config.tools : [output.tool],
    toolChoice: native ? undefined : { type: 'function', function: { name: output.name } },
    finalAnswer: true,
  });
  const finalCall = native
    ? undefined
    : response.tool_calls?.find((toolCall) => toolCall.function.name === output.name);
  if (finalCall !== undefined) return answerFinalCall(state, response, finalCall, output);
  if ((response.tool_calls?.length ?? 0) > 0) {
    state.trace.emit('warning', {
      code: 'final_answer_tool_calls',
      message:
        'The model asked for tools on the output call, where tools are off; those calls were not run and are left out of the transcript (they are in the llm_call event).',
    });
  }
  state.messages.push(assistantMessage(response, []));
  return readJson(output, response.content ?? '');
}

/**
 * Puts the final-answer call in the transcript with its answer: an acknowledgement, or the issues
 * (so a repair call sees them), and reads its arguments.
 */
function answerFinalCall(
  state: RunState,
  response: ModelResponse,
  finalCall: ToolCall,
  output: ResolvedOutput,
): Reading {
  const [toolCall] = uniqueToolCalls([finalCall], state.trace.turn, state.toolCallIds).toolCalls;
  state.messages.push(assistantMessage(response, [toolCall!]));
  const reading = readJson(output, toolCall!.function.arguments);
  state.messages.push({
    role: 'tool',
    tool_call_id: toolCall!.id,
    content: reading.valid
      ? 'Final answer received.'
      : errorContent(
          `The arguments do not match the schema of ${output.name}:\n${formatIssues(reading.issues)}\nCall ${output.name} again with corrected arguments.`,
        ),
  });
  return reading;
}

/**
 * Reads an answer (the JSON text, or the final-answer tool's arguments) against the schema: a
 * Markdown code fence around the whole of it is taken off.
 */
function readJson(output: ResolvedOutput, raw: string): Reading {
  const parsed = parseJsonOutput(raw);
  if (!parsed.ok)
    return { valid: false, raw, issues: [{ path: [], message: `expected JSON: ${parsed.error}` }] };
  let value = parsed.value;
  if (output.wrapped) {
    if (typeof value !== 'object' || value === null || !('value' in value)) {
      return { valid: false, raw, issues: [{ path: [], message: 'expected an object { "value": ... }' }] };
    }
    value = (value as { value: unknown }).value;
  }
  const outcome = output.validate(value);
  return outcome.success
    ? { valid: true, value: outcome.value }
    : { valid: false, raw, issues: outcome.issues };
}

function keep(state: RunState, value: unknown): void {
  state.output = { value };
}
