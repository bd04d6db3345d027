import type { ToolCall } from '../../model/messages.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import { errorContent } from '../../tools/serialize-result.js';
import type { ToolCallOutcome } from '../../tools/tool-call-outcome.js';
import { ToolRunner } from '../../tools/tool-runner.js';
import type { ExecuteToolCallsOptions, ToolBatchContext } from '../../tools/tool-runner.js';
import type { TemporalActivities } from '../activity-types.js';

/**
 * A `ToolRunner` for a workflow: each tool call is a `callTool` activity, which runs the tool on
 * the worker exactly as the loop's own runner would (arguments parsed and validated, the tool's
 * timeout, errors as data) and returns its outcome. The loop's refusals (`beforeCall`) and
 * checkpoints (`onOutcome`) happen here, in the workflow, in call order. The caller's `context`
 * travels to the activity, so it must be plain JSON.
 */
export class ActivityToolRunner extends ToolRunner {
  readonly #activities: Pick<TemporalActivities, 'callTool'>;

  constructor(registry: ToolRegistry, activities: Pick<TemporalActivities, 'callTool'>) {
    super(registry);
    this.#activities = activities;
  }

  override async executeToolCalls<Context extends object>(
    _registry: ToolRegistry,
    toolCalls: readonly ToolCall[],
    context: ToolBatchContext<Context>,
    options: ExecuteToolCallsOptions = {},
  ): Promise<ToolCallOutcome[]> {
    const {
      runId,
      requestId,
      turnIndex,
      signal,
      callingRun: _callingRun,
      ...callerContext
    } = context as ToolBatchContext & { runId: string; requestId: string; turnIndex: number };
    const outcomes = new Array<ToolCallOutcome>(toolCalls.length);
    const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, toolCalls.length));
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < toolCalls.length) {
        const index = next++;
        const toolCall = toolCalls[index]!;
        const refusal = signal?.aborted
          ? { errorCode: 'aborted' as const, error: 'The run was aborted before this tool call ran.' }
          : options.beforeCall?.(toolCall, index);
        outcomes[index] =
          refusal === undefined
            ? await this.#activities.callTool({
                toolCall,
                runId,
                requestId,
                turnIndex,
                ...(Object.keys(callerContext).length === 0 ? {} : { context: callerContext }),
              })
            : {
                toolCallId: toolCall.id,
                name: toolCall.function.name,
                error: refusal.error,
                errorCode: refusal.errorCode,
                content: errorContent(refusal.error),
                durationMs: 0,
              };
        if (options.onOutcome !== undefined) await options.onOutcome(outcomes[index]!, index);
      }
    };
    if (concurrency === 1) await worker();
    else await Promise.all(Array.from({ length: concurrency }, worker));
    return outcomes;
  }
}
