import { describeThrown, describeValue, errorName } from '../errors/describe-value.js';
import type { ToolCall } from '../model/messages.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { parseArguments } from '../tools/parse-arguments.js';
import { unknownToolMessage } from '../tools/tool-runner.js';
import { raceAbort } from './race-abort.js';
import type { RunState } from './run-state.js';
import type { TurnPlan } from './prepare-turn-step.js';
import type { RepairToolCall, ToolCallProblem } from './turn-hooks.js';

/**
 * Offers every call that would fail to parse, validate or find its tool to `repairToolCall`,
 * before the assistant message reaches the transcript, so a repaired call replaces the original
 * there (keeping its id) and runs instead. Returns the calls as they will run; the same array
 * when nothing was repaired.
 */
export async function repairToolCalls(
  state: RunState,
  toolCalls: readonly ToolCall[],
  rejectedCalls: ReadonlyMap<number, unknown> | undefined,
  plan: TurnPlan,
  repair: RepairToolCall,
): Promise<readonly ToolCall[]> {
  let repaired: ToolCall[] | undefined;
  for (let index = 0; index < toolCalls.length; index++) {
    if (rejectedCalls?.has(index)) continue;
    const toolCall = toolCalls[index]!;
    const problem = findProblem(plan.registry, toolCall);
    if (problem === undefined) continue;
    const replacement = await askRepair(state, repair, {
      toolCall,
      error: problem,
      tools: plan.tools,
      messages: state.messages,
      ...(state.signal === undefined ? {} : { signal: state.signal }),
    });
    if (replacement === undefined) continue;
    const fixed: ToolCall = {
      id: toolCall.id,
      type: 'function',
      function: { name: replacement.function.name, arguments: replacement.function.arguments },
    };
    state.trace.emit('tool_call_repaired', {
      toolCallId: toolCall.id,
      original: toolCall,
      repaired: fixed,
      errorCode: problem.code,
      error: problem.message,
    });
    (repaired ??= [...toolCalls])[index] = fixed;
  }
  return repaired ?? toolCalls;
}

/** What the runner would answer the call with, when it could not run it. */
function findProblem(registry: ToolRegistry, toolCall: ToolCall): ToolCallProblem | undefined {
  const name = toolCall.function.name;
  const tool = Object.hasOwn(registry, name) ? registry[name] : undefined;
  if (tool === undefined) return { code: 'unknown_tool', message: unknownToolMessage(name, registry) };
  const parsed = parseArguments(tool, toolCall.function.arguments);
  if (parsed.ok) return undefined;
  // parseArguments only fails these two ways for a string argument.
  return { code: parsed.code as 'invalid_json' | 'invalid_arguments', message: parsed.error };
}

/** The repaired call, or `undefined` to keep the error (a `repair_failed` warning says why when it failed). */
async function askRepair(
  state: RunState,
  repair: RepairToolCall,
  info: Parameters<RepairToolCall>[0],
): Promise<ToolCall | undefined> {
  const { toolCall } = info;
  const failed = (reason: string): undefined => {
    state.trace.emit('warning', {
      code: 'repair_failed',
      message: `repairToolCall ${reason} for call ${toolCall.id} of "${toolCall.function.name}"; the call is answered with its error.`,
      toolName: toolCall.function.name,
      toolCalls: [{ id: toolCall.id, name: toolCall.function.name }],
    });
    return undefined;
  };
  let replacement: unknown;
  try {
    const pending = Promise.resolve().then(() => repair(info));
    replacement = await raceAbort(pending, state.signal);
  } catch (error) {
    if (state.signal?.aborted) throw error;
    // A thrown message may quote the arguments: only its name goes into a metadata-only trace.
    return failed(`threw ${state.trace.metadataOnly ? errorName(error) : `(${describeThrown(error)})`}`);
  }
  if (replacement == null) return undefined;
  if (!isToolCall(replacement)) {
    return failed(
      `returned ${state.trace.metadataOnly ? 'a value' : describeValue(replacement)}, not a tool call { id, type: 'function', function: { name, arguments } } with string name and arguments`,
    );
  }
  return replacement;
}

function isToolCall(value: unknown): value is ToolCall {
  const fn = (value as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof fn === 'object' &&
    fn !== null &&
    typeof fn.name === 'string' &&
    typeof fn.arguments === 'string'
  );
}
