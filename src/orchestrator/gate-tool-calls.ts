import type { ToolCall } from '../model/messages.js';
import { refusedCallMessage, spentOverrun } from './budget.js';
import { checkCall, loopStopMessage } from './loop-guard.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import type { Refusal } from './turn-progress.js';
import { recordOverrun, requestStop } from './stop-reason.js';

/** Which of a turn's calls run, decided in call order before any of them runs. */
export interface GatedCalls {
  /** By call index; `undefined` when every call runs. */
  readonly refusals: Map<number, Refusal> | undefined;
  /** Index of the current repeat streak's newest call that runs in this turn: the guard remembers its result. */
  readonly streakContentIndex: number | undefined;
}

/**
 * Decides, call by call, what the loop guard and the budget allow: the calls `checkResponse`
 * rejected, then the guard's verdicts, then the budget (tokens, cost and time spent, and
 * `maxToolCalls`). Deciding up front keeps the guard working with any tool runner; the budget's
 * clock is checked again as each call starts (`beforeCall`). A guard or budget that ends the run
 * asks for it with `requestStop`.
 */
export function gateToolCalls(
  state: RunState,
  toolCalls: readonly ToolCall[],
  rejectedCalls: ReadonlyMap<number, string> | undefined,
  config: RunConfig,
): GatedCalls {
  let refusals: Map<number, Refusal> | undefined;
  if (rejectedCalls !== undefined) {
    refusals = new Map();
    for (const [index, error] of rejectedCalls)
      refusals.set(index, { errorCode: 'invalid_tool_call', error });
  }
  let streakContentIndex: number | undefined;
  const guard = config.loopGuard;
  const guardState = state.loopGuard;
  if (guard !== undefined && guardState !== undefined) {
    for (let index = 0; index < toolCalls.length; index++) {
      if (refusals?.has(index)) continue;
      const toolCall = toolCalls[index]!;
      const verdict = checkCall(guardState, guard, toolCall);
      if (verdict.kind === 'run') {
        streakContentIndex = index;
        continue;
      }
      const name = toolCall.function.name;
      const reference = [{ id: toolCall.id, name }];
      if (verdict.kind === 'warn' || verdict.kind === 'block') {
        state.trace.emit('warning', {
          code: 'repeated_tool_call',
          message: `The model called "${name}" with the same arguments ${verdict.streak} times in a row; ${
            verdict.kind === 'warn'
              ? "the call ran (loopGuard action 'warn')."
              : 'this call was not run, and the model was told to use the earlier result.'
          }`,
          toolName: name,
          toolCalls: reference,
        });
        if (verdict.kind === 'warn') {
          streakContentIndex = index;
        } else {
          (refusals ??= new Map()).set(index, {
            errorCode: 'repeated_tool_call',
            error: '',
            blocked: { streak: verdict.streak, quotes: streakContentIndex ?? -1 },
          });
        }
        continue;
      }
      state.trace.emit('warning', {
        code: 'loop_detected',
        message: verdict.afterBlock
          ? `The model called "${name}" with the same arguments again after that call was blocked; the run ends (stopReason 'loop_detected').`
          : `The model called "${name}" with the same arguments ${verdict.streak} times in a row; the run ends (loopGuard action 'stop').`,
        toolName: name,
        toolCalls: reference,
      });
      requestStop(state, 'loop_detected');
      refusals ??= new Map();
      for (let rest = index; rest < toolCalls.length; rest++) {
        if (!refusals.has(rest)) {
          refusals.set(rest, {
            errorCode: 'loop_detected',
            error: loopStopMessage(toolCalls[rest]!.function.name, rest === index),
          });
        }
      }
      break;
    }
  }
  const budget = config.budget;
  // Also after the guard ended the run: the calls before the repeated one still count against it.
  if (budget !== undefined) {
    let overrun = spentOverrun(budget, state.usage, config.now() - state.startedAt);
    let allowed =
      budget.maxToolCalls === undefined
        ? Number.POSITIVE_INFINITY
        : budget.maxToolCalls - state.toolCallsMade;
    for (let index = 0; index < toolCalls.length; index++) {
      if (refusals?.has(index)) continue;
      if (overrun === undefined && allowed > 0) {
        allowed--;
        continue;
      }
      overrun ??= { limit: 'maxToolCalls', value: budget.maxToolCalls!, used: budget.maxToolCalls! };
      (refusals ??= new Map()).set(index, {
        errorCode: 'budget_exceeded',
        error: refusedCallMessage(overrun),
      });
    }
    if (overrun !== undefined) {
      // The loop guard's stop, when it came first in this batch, stays the run's stop reason.
      recordOverrun(state, overrun, state.stopRequested ?? 'budget_exceeded');
      requestStop(state, 'budget_exceeded');
    }
  }
  return { refusals, streakContentIndex };
}
