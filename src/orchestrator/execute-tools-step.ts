import type { ModelResponse } from '../model/model-adapter.js';
import { callsNeedingApproval } from './approvals.js';
import { answerToolCalls, batchContextOf } from './answer-tool-calls.js';
import { saveCheckpoint } from './checkpoint.js';
import { gateToolCalls } from './gate-tool-calls.js';
import type { ToolStepOutcome } from './stop-reason.js';
import type { TurnPlan } from './prepare-turn-step.js';
import { repairToolCalls } from './repair-tool-calls.js';
import { assistantMessage, uniqueToolCalls } from './assistant-message.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';

/** How a turn's tool calls are run. */
export interface ExecuteToolsOptions {
  /** Calls to answer with this error instead of running them, by index (see `checkResponse`). */
  readonly rejectedCalls: ReadonlyMap<number, string> | undefined;
  readonly plan: TurnPlan;
  readonly config: RunConfig;
}

/**
 * Repairs what `repairToolCall` can, appends the assistant message, lets the loop guard and the
 * budget decide which calls run, asks which calls need approval, saves a checkpoint, then answers
 * the calls ({@link answerToolCalls}).
 */
export async function executeToolsStep(
  state: RunState,
  response: ModelResponse,
  options: ExecuteToolsOptions,
): Promise<ToolStepOutcome> {
  const { config, plan } = options;
  const turn = state.trace.turn;
  const unique = uniqueToolCalls(response.tool_calls ?? [], turn, state.toolCallIds);
  const { originalIds } = unique;
  let toolCalls = unique.toolCalls;
  if (config.repairToolCall !== undefined) {
    toolCalls = await repairToolCalls(state, toolCalls, options.rejectedCalls, plan, config.repairToolCall);
  }
  state.messages.push(assistantMessage(response, toolCalls));
  for (let index = 0; index < toolCalls.length; index++) {
    const originalId = originalIds[index];
    state.trace.emit('tool_call', {
      toolCall: toolCalls[index]!,
      ...(originalId === undefined ? {} : { originalId }),
    });
  }
  const gated = gateToolCalls(state, toolCalls, options.rejectedCalls, config);
  const needsApproval = config.approvals
    ? await callsNeedingApproval(
        state,
        plan.registry,
        toolCalls,
        gated.refusals,
        batchContextOf(state, config),
      )
    : undefined;
  state.currentTurn = {
    turnIndex: turn,
    toolCalls,
    calls: toolCalls.map((_toolCall, index) => ({
      status: 'pending',
      outcome: undefined,
      needsApproval: needsApproval?.[index] ?? false,
      reported: false,
    })),
    refusals: gated.refusals,
    streakContentIndex: gated.streakContentIndex,
    activeTools: plan.registry === config.registry ? undefined : Object.keys(plan.registry),
  };
  await saveCheckpoint(state);
  return answerToolCalls(state, config);
}
