import type { ChatMessage } from '../model/messages.js';
import { defineTool } from '../tools/define-tool.js';
import type { InferInput, NeedsApproval, Tool, ToolExecutionContext } from '../tools/define-tool.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { ResumeOptions, RunOptions, RunResult } from './orchestrator-options.js';
import type { ApprovalDecision, RunState as SavedRunState } from '../durable/run-state.js';
import { nestedRunId } from './nested-approvals.js';
import type { OutputOption } from './output/output-options.js';

/** What `orchestrator.asTool()` takes. */
export interface AgentToolOptions<Parameters = undefined> {
  /** The name the calling model uses: letters, digits, `_` and `-`, at most 64 characters. */
  readonly name: string;
  /** What the agent does, written for the calling model. */
  readonly description: string;
  /**
   * The tool's parameters: a zod schema or a JSON Schema.
   * @default { input: string }: the task, in words
   */
  readonly parameters?: Parameters;
  /**
   * The agent's first user message, from the call's arguments.
   * @default the `input` argument when it is a string, else the arguments as JSON
   */
  readonly prompt?: (input: InferInput<Parameters>) => string;
  /** The agent's instructions for this tool, its system prompt. @default the agent's own `instructions` */
  readonly instructions?: string;
  /**
   * The agent's typed output for this tool, replacing its orchestrator's `output`: the tool's
   * result is `result.output` (the calling model sees it as JSON).
   * @default the orchestrator's `output`; without one, the tool's result is the agent's final text
   */
  readonly output?: OutputOption<unknown>;
  /** Whether a call waits for a person's decision before the agent runs (see `defineTool`). @default false */
  readonly needsApproval?: NeedsApproval<InferInput<Parameters>>;
  /** Milliseconds before the call, and the agent's run with it, is abandoned. @default the runner's */
  readonly timeoutMs?: number;
}

/** What an agent tool needs of its orchestrator. */
export interface RunsAgent {
  run(
    messages: readonly ChatMessage[],
    systemPrompt: string | undefined,
    runOptions: RunOptions<Record<string, unknown>, unknown>,
  ): Promise<RunResult>;
  resume(
    runIdOrState: string | SavedRunState,
    resumeOptions: ResumeOptions<Record<string, unknown>, unknown>,
  ): Promise<RunResult>;
}

const defaultParameters = {
  type: 'object',
  properties: { input: { type: 'string', description: 'The task for the agent, in words.' } },
  required: ['input'],
  additionalProperties: false,
};

/**
 * A tool that runs an agent: each call is a run of `agent` nested in the calling run. The nested
 * run's events reach the calling run (`traces`, listeners, `stream()`, sinks) stamped with
 * `parentRunId` and `parentToolCallId`, so viewers and OpenTelemetry nest it under the call; its
 * model usage counts in the calling run's `usage` and budget; the call's signal (the calling
 * run's abort, the tool's timeout) aborts it. A nested run that waits for approvals pauses the
 * calling run, which lists them; `resume` continues the nested run from where it paused. With a
 * checkpoint store the nested run saves its checkpoints there too (as run `<runId>/<toolCallId>`),
 * so a crash mid-call resumes it rather than starting it again. A nested run that fails is a tool
 * error the calling model sees.
 */
export function agentTool<Parameters>(agent: RunsAgent, options: AgentToolOptions<Parameters>): Tool {
  const parameters = options.parameters ?? defaultParameters;
  return defineTool({
    name: options.name,
    description: options.description,
    parameters,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.needsApproval === undefined ? {} : { needsApproval: options.needsApproval as NeedsApproval }),
    execute: async (input: unknown, context: ToolExecutionContext) => {
      const calling = context.callingRun;
      const store = calling?.checkpointStore;
      const shared = {
        signal: context.signal,
        parentRunId: context.runId,
        ...(calling === undefined ? {} : { onEvent: forwardTo(context) }),
        ...(options.output === undefined ? {} : { output: options.output }),
        ...(store === undefined ? {} : { checkpointStore: store }),
      };
      const resumeFrom = async (
        from: string | SavedRunState,
        approvals: Readonly<Record<string, ApprovalDecision>>,
      ): Promise<RunResult> => agent.resume(from, { ...shared, approvals });
      const paused = calling?.takePaused(context.toolCallId);
      const runId = paused?.paused.runId ?? nestedRunId(context.runId, context.toolCallId);
      let result: RunResult;
      if (paused !== undefined) {
        result = await resumeFrom(paused.paused.state ?? runId, paused.approvals);
      } else if (store !== undefined && (await store.load(runId)) !== undefined) {
        // The call ran before a crash: its run goes on from its last checkpoint.
        result = await resumeFrom(runId, {});
      } else {
        const messages = [{ role: 'user' as const, content: promptOf(options, input) }];
        result = await agent.run(messages, options.instructions, {
          ...shared,
          ...(store === undefined ? {} : { runId }),
        });
      }
      while (result.stopReason === 'awaiting_approval' && calling !== undefined) {
        const known = calling.pause(context.toolCallId, {
          toolName: options.name,
          runId: result.runId,
          pendingApprovals: result.pendingApprovals ?? [],
          ...(store === undefined && result.state !== undefined ? { state: result.state } : {}),
        });
        if (known === undefined) {
          throw new Error(`The agent ${options.name} waits for a person's approval; the calling run pauses.`);
        }
        result = await resumeFrom(store === undefined ? result.state! : result.runId, known);
      }
      if (result.stopReason === 'aborted') context.signal.throwIfAborted();
      if (result.stopReason === 'awaiting_approval') {
        throw new Error(
          `the agent ${options.name} stopped to wait for a person's approval of ${(
            result.pendingApprovals ?? []
          )
            .map((approval) => approval.name)
            .join(
              ', ',
            )}, and it runs outside an orchestrator's run, which would pause for it. Give the agent tools that need no approval, or put needsApproval on this tool.`,
        );
      }
      return result.output !== undefined ? result.output : result.content;
    },
  }) as Tool;
}

function promptOf<Parameters>(options: AgentToolOptions<Parameters>, input: unknown): string {
  if (options.prompt !== undefined) return options.prompt(input as InferInput<Parameters>);
  const text = (input as { input?: unknown } | undefined)?.input;
  return typeof text === 'string' ? text : JSON.stringify(input);
}

/** The nested run's events, and its own nested runs', to the calling run; its own stamped with the call's id. */
function forwardTo(context: ToolExecutionContext): (event: TraceEvent) => void {
  const calling = context.callingRun!;
  return (event) =>
    calling.emit(
      event.parentRunId === context.runId && event.parentToolCallId === undefined
        ? { ...event, parentToolCallId: context.toolCallId }
        : event,
    );
}
