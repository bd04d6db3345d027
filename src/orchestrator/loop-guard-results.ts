import { contentAsText } from '../model/content-parts.js';
import type { ToolCall } from '../model/messages.js';
import type { ToolCallOutcome } from '../tools/tool-call-outcome.js';
import type { Refusal } from './turn-progress.js';
import { recordResult } from './loop-guard.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import { requestStop } from './stop-reason.js';

/**
 * The loop guard's bookkeeping once the results are in: the result a later blocked repeat will
 * quote, and each tool's run of errors; with `action: 'stop'`, a tool failing again and again ends the run.
 */
export function recordGuardResults(
  state: RunState,
  config: RunConfig,
  toolCalls: readonly ToolCall[],
  outcomes: readonly ToolCallOutcome[],
  refusals: ReadonlyMap<number, Refusal> | undefined,
  streakContentIndex: number | undefined,
): void {
  const guard = config.loopGuard;
  const guardState = state.loopGuard;
  if (guard === undefined || guardState === undefined) return;
  if (streakContentIndex !== undefined)
    guardState.lastContent = contentAsText(outcomes[streakContentIndex]!.content);
  let stopped = false;
  for (let index = 0; index < outcomes.length; index++) {
    const outcome = outcomes[index]!;
    const code = outcome.errorCode;
    // Refusals, aborts and the budget are not the tool's failures.
    if (
      refusals?.has(index) ||
      code === 'aborted' ||
      code === 'budget_exceeded' ||
      code === 'approval_denied'
    )
      continue;
    const name = toolCalls[index]!.function.name;
    const errors = recordResult(guardState, guard, name, outcome.error !== undefined);
    if (errors === undefined) continue;
    state.trace.emit('warning', {
      code: 'repeated_tool_errors',
      message: `Tool "${name}" returned an error ${errors} times in a row (last: ${code ?? 'error'}).`,
      toolName: name,
    });
    if (guard.action === 'stop' && !stopped) {
      state.trace.emit('warning', {
        code: 'loop_detected',
        message: `Tool "${name}" failed ${errors} times in a row; the run ends (loopGuard action 'stop').`,
        toolName: name,
      });
      requestStop(state, 'loop_detected');
      stopped = true;
    }
  }
}
