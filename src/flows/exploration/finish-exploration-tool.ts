import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import type { Tool } from '../../tools/define-tool.js';

/** The name of the tool that ends an exploration. */
export const finishExplorationToolName = 'finish_exploration';

const parameters = z.object({
  summary: z
    .string()
    .min(1)
    .describe('What you learned: the structure, main entry points and concepts the documentation needs.'),
});

/**
 * Creates the `finish_exploration` tool. It hands the summary to `onFinish` and answers with
 * a short acknowledgement; the orchestrator's stop condition ends the loop after that turn.
 */
export function createFinishExplorationTool(
  onFinish: (summary: string) => void,
): Tool<{ summary: string }, string> {
  return defineTool({
    name: finishExplorationToolName,
    description:
      'Call this once you understand enough to write the requested documentation. Ends the exploration.',
    parameters,
    execute: ({ summary }) => {
      onFinish(summary);
      return 'Exploration finished.';
    },
  });
}
