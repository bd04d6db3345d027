import type { ApprovalDecision, PendingApproval } from '../durable/run-state.js';
import type { PausedRun } from '../tools/calling-run.js';

/** How a nested run's own key appears in the calling run: under the id of the call that started it. */
export function nestedKey(toolCallId: string, key: string): string {
  return `${toolCallId}/${key}`;
}

/** The id of the run an agent-tool call nests, derived so a resumed call finds the run's checkpoints. */
export function nestedRunId(runId: string, toolCallId: string): string {
  return `${runId}/${toolCallId}`;
}

/** Whether a decision has come for any call the nested run of `toolCallId` waits on: it can go on. */
export function hasNestedDecision(
  toolCallId: string,
  paused: PausedRun,
  decisions: Readonly<Record<string, unknown>>,
): boolean {
  return paused.pendingApprovals.some((approval) =>
    Object.hasOwn(decisions, nestedKey(toolCallId, approval.toolCallId)),
  );
}

/** The decisions given for the nested run's calls, keyed as the nested run lists them. */
export function nestedDecisions(
  toolCallId: string,
  paused: PausedRun,
  decisions: Readonly<Record<string, ApprovalDecision>>,
): Record<string, ApprovalDecision> {
  const given: Record<string, ApprovalDecision> = {};
  for (const approval of paused.pendingApprovals) {
    const decision = decisions[nestedKey(toolCallId, approval.toolCallId)];
    if (decision !== undefined) given[approval.toolCallId] = decision;
  }
  return given;
}

/** The nested run's calls still undecided, as the calling run lists them: keyed and pathed from it. */
export function nestedPending(
  toolCallId: string,
  paused: PausedRun,
  decisions: Readonly<Record<string, unknown>>,
): PendingApproval[] {
  const step = { toolName: paused.toolName, toolCallId, runId: paused.runId };
  const pending: PendingApproval[] = [];
  for (const approval of paused.pendingApprovals) {
    const key = nestedKey(toolCallId, approval.toolCallId);
    if (Object.hasOwn(decisions, key)) continue;
    pending.push({
      toolCallId: key,
      name: approval.name,
      arguments: approval.arguments,
      agentPath: [step, ...(approval.agentPath ?? [])],
    });
  }
  return pending;
}
