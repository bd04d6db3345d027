import type { ToolRegistry } from '../../tools/define-tool.js';
import { defineTool } from '../../tools/define-tool.js';
import type { TemporalActivities, ToolDescription } from '../activity-types.js';

/**
 * A tool registry for a workflow, built from the worker's tool descriptions (`describeAgent`):
 * the model sees the same definitions, and approvals are decided the same way (a tool whose
 * `needsApproval` is a function is asked through the `toolNeedsApproval` activity). The tools'
 * code stays on the worker: run them with {@link ActivityToolRunner}, whose activity runs them.
 */
export function createActivityTools(
  descriptions: readonly ToolDescription[],
  activities: Pick<TemporalActivities, 'toolNeedsApproval'>,
): ToolRegistry {
  return Object.fromEntries(
    descriptions.map((description) => {
      const needsApproval = description.needsApproval;
      const tool = defineTool({
        name: description.name,
        description: description.description,
        parameters: description.inputSchema,
        ...(description.strict === undefined ? {} : { strict: description.strict }),
        ...(needsApproval === undefined
          ? {}
          : {
              needsApproval:
                needsApproval === 'per_call'
                  ? (
                      input: unknown,
                      context: { runId: string; requestId: string; turnIndex: number; toolCallId: string },
                    ) =>
                      activities.toolNeedsApproval({
                        toolName: description.name,
                        toolCallId: context.toolCallId,
                        input,
                        runId: context.runId,
                        requestId: context.requestId,
                        turnIndex: context.turnIndex,
                      })
                  : needsApproval,
            }),
        execute: () => {
          throw new Error(
            `The tool "${description.name}" runs on the Temporal worker, not in the workflow: give the orchestrator the ActivityToolRunner that loadActivityAgent returns (options.toolRunner).`,
          );
        },
      });
      return [description.name, tool];
    }),
  );
}
