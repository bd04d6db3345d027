import type { ApprovalDecision } from '../durable/run-state.js';
import { describeThrown } from '../errors/describe-value.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ToolCall } from '../model/messages.js';
import type { ToolExecutionContext, ToolRegistry } from '../tools/define-tool.js';
import { parseArguments } from '../tools/parse-arguments.js';
import { errorContent } from '../tools/serialize-result.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { Refusal } from './turn-progress.js';
import type { RunState } from './run-state.js';
import type { TurnProgress } from './turn-progress.js';

const neverAborted: AbortSignal = new AbortController().signal;

/**
 * Asks each call's tool whether the call needs a person's approval (`needsApproval`), once per
 * call, before any of the turn's calls runs. Refused calls, unknown tools and arguments that do not
 * parse need none: they are answered with an error anyway. A `needsApproval` function that throws
 * counts as a yes (the call waits for a person) and is traced as a `needs_approval_failed` warning.
 */
export async function callsNeedingApproval(
  state: RunState,
  registry: ToolRegistry,
  toolCalls: readonly ToolCall[],
  refusals: ReadonlyMap<number, Refusal> | undefined,
  context: object,
): Promise<boolean[]> {
  const needs = new Array<boolean>(toolCalls.length).fill(false);
  for (let index = 0; index < toolCalls.length; index++) {
    if (refusals?.has(index)) continue;
    const toolCall = toolCalls[index]!;
    const name = toolCall.function.name;
    const tool = typeof name === 'string' && Object.hasOwn(registry, name) ? registry[name] : undefined;
    const rule = tool?.needsApproval;
    if (tool === undefined || rule === undefined || rule === false) continue;
    if (rule === true) {
      needs[index] = true;
      continue;
    }
    const parsed = parseArguments(tool, toolCall.function.arguments);
    if (!parsed.ok) continue;
    try {
      const callContext = {
        ...context,
        toolCallId: toolCall.id,
        signal: state.signal ?? neverAborted,
      } as ToolExecutionContext;
      needs[index] = (await rule(parsed.value, callContext)) === true;
    } catch (error) {
      needs[index] = true;
      state.trace.emit('warning', {
        code: 'needs_approval_failed',
        message: `needsApproval of tool "${name}" threw (${describeThrown(error)}); the call waits for a person's decision.`,
        toolName: name,
        toolCalls: [{ id: toolCall.id, name }],
      });
    }
  }
  return needs;
}

/** Records the outcome of every denied call of the turn that has none yet: an `approval_denied` error. */
export function answerDeniedCalls(
  turn: TurnProgress,
  decisions: Readonly<Record<string, ApprovalDecision>>,
): void {
  for (let index = 0; index < turn.calls.length; index++) {
    const call = turn.calls[index]!;
    const toolCall = turn.toolCalls[index]!;
    const decision = decisions[toolCall.id];
    if (call.status === 'done' || !call.needsApproval || decision === undefined || decision.approved)
      continue;
    const reason =
      decision.reason === undefined || decision.reason === '' ? '' : ` Reason: ${decision.reason}`;
    const error = `A person denied this call to "${toolCall.function.name}", so it did not run.${reason}`;
    const outcome: ToolCallOutcome = {
      toolCallId: toolCall.id,
      name: toolCall.function.name,
      error,
      errorCode: 'approval_denied',
      content: errorContent(error),
      durationMs: 0,
    };
    call.status = 'done';
    call.outcome = outcome;
  }
}

/**
 * Checks the decisions given to `resume` against the calls that wait for one and adds them to the
 * run's decisions. A decision on a call already decided must be the same decision.
 *
 * @throws {InvalidArgumentError} for a decision of the wrong shape, or on a call that does not wait for one.
 */
export function applyDecisions(
  decisions: Record<string, ApprovalDecision>,
  given: unknown,
  waiting: readonly string[],
): void {
  if (given === undefined) return;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new InvalidArgumentError({
      argument: 'approvals',
      value: given,
      message: 'must be an object of decisions by tool call id, e.g. { call_1: { approved: true } }.',
    });
  }
  for (const [toolCallId, value] of Object.entries(given)) {
    const argument = `approvals[${JSON.stringify(toolCallId)}]`;
    const decision = value as { approved?: unknown; reason?: unknown } | null;
    if (
      typeof decision !== 'object' ||
      decision === null ||
      typeof decision.approved !== 'boolean' ||
      (decision.reason !== undefined && (typeof decision.reason !== 'string' || decision.approved))
    ) {
      throw new InvalidArgumentError({
        argument,
        value,
        message: "must be { approved: true } or { approved: false, reason?: 'why' }.",
      });
    }
    const normalised: ApprovalDecision = decision.approved
      ? { approved: true }
      : decision.reason === undefined
        ? { approved: false }
        : { approved: false, reason: decision.reason };
    const earlier = decisions[toolCallId];
    if (earlier !== undefined) {
      if (earlier.approved === normalised.approved) continue;
      throw new InvalidArgumentError({
        argument,
        value,
        message: `contradicts the decision already recorded for this call (approved: ${String(earlier.approved)}); a decision is final.`,
      });
    }
    if (!waiting.includes(toolCallId)) {
      throw new InvalidArgumentError({
        argument,
        value,
        message: `names no call that waits for approval; the calls waiting are: ${waiting.length === 0 ? 'none' : waiting.join(', ')}.`,
      });
    }
    decisions[toolCallId] = normalised;
  }
}
