import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { ApprovalDecision, PendingApproval } from '../../durable/run-state.js';
import type { TraceEvent } from '../../tracing/trace-events.js';

/** Decisions on calls that wait for a person, by tool call id (the keys of `pendingApprovals`). */
export type ApprovalDecisions = { readonly [toolCallId: string]: ApprovalDecision };

/**
 * Signal a workflow that runs `runInWorkflow` with decisions on calls that wait for approval; the
 * run resumes once every waiting call is decided. Decisions on other ids are kept for later calls.
 *
 * @example
 * await client.workflow.getHandle(workflowId).signal(approveToolCallsSignal, { call_1: { approved: true } });
 */
export const approveToolCallsSignal = defineSignal<[ApprovalDecisions]>('toolOrchestrator.approveToolCalls');

/** Query the calls a workflow's run waits on a decision for (empty while it does not wait). */
export const pendingApprovalsQuery = defineQuery<readonly PendingApproval[]>(
  'toolOrchestrator.pendingApprovals',
);

/** Query the trace events of a workflow's runs so far, in order. */
export const traceEventsQuery = defineQuery<readonly TraceEvent[]>('toolOrchestrator.traceEvents');
