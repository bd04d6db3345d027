import { ApplicationFailure, condition, proxySinks, setHandler } from '@temporalio/workflow';
import { ToolOrchestratorError } from '../../errors/tool-orchestrator-error.js';
import type { ApprovalDecision, PendingApproval } from '../../durable/run-state.js';
import type { ChatMessage } from '../../model/messages.js';
import type { RunOptions, RunResult } from '../../orchestrator/orchestrator-options.js';
import type { OutputOf } from '../../orchestrator/output/output-options.js';
import type { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import type { TraceEvent } from '../../tracing/trace-events.js';
import type { TraceSinks } from '../trace-sinks.js';
import { approveToolCallsSignal, pendingApprovalsQuery, traceEventsQuery } from './workflow-handlers.js';

/**
 * Runs `orchestrator` in a workflow to its end, approvals included: while the run waits for
 * approval it answers `pendingApprovalsQuery`, waits (durably, for as long as it takes) for
 * `approveToolCallsSignal` to decide every waiting call, and resumes. Every trace event is kept
 * for `traceEventsQuery` and sent to the worker's trace sink (`createTraceSinks`), which does not
 * see it again on replay. An error of this library (`MaxTurnsExceededError` with
 * `onCutShort: 'throw'`, a bad argument) fails the workflow as a non-retryable `ApplicationFailure`
 * of the error's name, where any other error would fail the workflow task and retry it forever.
 * Call it from a workflow function only.
 *
 * @example
 * export async function agent(question: string): Promise<string> {
 *   const agent = await loadActivityAgent();
 *   const orchestrator = new ToolOrchestrator(agent.adapter, agent.tools, agent.options);
 *   return (await runInWorkflow(orchestrator, [{ role: 'user', content: question }])).content;
 * }
 */
export async function runInWorkflow<Context extends object, OutputSchema, RunSchema = OutputSchema>(
  orchestrator: ToolOrchestrator<Context, OutputSchema>,
  messages: readonly ChatMessage[],
  systemPrompt?: string,
  runOptions: RunOptions<Context, RunSchema> = {},
): Promise<RunResult<OutputOf<RunSchema>>> {
  const events: TraceEvent[] = [];
  const decisions = new Map<string, ApprovalDecision>();
  let pending: readonly PendingApproval[] = [];
  setHandler(traceEventsQuery, () => events);
  setHandler(pendingApprovalsQuery, () => pending);
  setHandler(approveToolCallsSignal, (incoming) => {
    for (const [toolCallId, decision] of Object.entries(incoming)) decisions.set(toolCallId, decision);
  });
  const sinks = proxySinks<TraceSinks>();
  const onEvent = (event: TraceEvent): void => {
    events.push(event);
    sinks.toolOrchestrator.event(event);
    runOptions.onEvent?.(event);
  };
  try {
    return await runToEnd(
      orchestrator,
      messages,
      systemPrompt,
      { ...runOptions, onEvent },
      decisions,
      (calls) => {
        pending = calls;
      },
    );
  } catch (error) {
    if (!ToolOrchestratorError.isInstance(error)) throw error;
    throw ApplicationFailure.create({
      message: error.message,
      type: error.name,
      nonRetryable: true,
      details: [{ code: error.code }],
    });
  }
}

async function runToEnd<Context extends object, OutputSchema, RunSchema>(
  orchestrator: ToolOrchestrator<Context, OutputSchema>,
  messages: readonly ChatMessage[],
  systemPrompt: string | undefined,
  runOptions: RunOptions<Context, RunSchema>,
  decisions: ReadonlyMap<string, ApprovalDecision>,
  setPending: (calls: readonly PendingApproval[]) => void,
): Promise<RunResult<OutputOf<RunSchema>>> {
  let result = await orchestrator.run(messages, systemPrompt, runOptions);
  while (result.stopReason === 'awaiting_approval' && result.state !== undefined) {
    const waiting = result.pendingApprovals ?? [];
    setPending(waiting);
    await condition(() => waiting.every((call) => decisions.has(call.toolCallId)));
    const approvals = Object.fromEntries(
      waiting.map((call) => [call.toolCallId, decisions.get(call.toolCallId)!]),
    );
    setPending([]);
    const { runId: _runId, ...resumeOptions } = runOptions;
    result = await orchestrator.resume(result.state, { ...resumeOptions, approvals });
  }
  return result;
}
