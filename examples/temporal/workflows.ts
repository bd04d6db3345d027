// The workflows file of the Temporal example: the worker bundles it into Temporal's workflow
// sandbox. It imports tool-orchestrator/temporal/workflow and the root entry only, never tools or
// adapters: those run on the worker, as activities (see worker.ts).
import { ToolOrchestrator, turnCountIs } from 'tool-orchestrator';
import { loadActivityAgent, runInWorkflow } from 'tool-orchestrator/temporal/workflow';

// Two ready workflows: the loop on the worker's adapter and tools, and the context-request loop.
export { agentWorkflow, exploreContextWorkflow } from 'tool-orchestrator/temporal/workflow';

/** A workflow of your own: the loop with your options, approvals by signal, traces by query. */
export async function supportWorkflow(question: string): Promise<string> {
  const agent = await loadActivityAgent({
    adapter: 'openai',
    activityOptions: {
      startToCloseTimeout: '5 minutes',
      heartbeatTimeout: '1 minute',
      retry: { maximumAttempts: 5 },
    },
  });
  const orchestrator = new ToolOrchestrator(agent.adapter, agent.tools, {
    ...agent.options,
    instructions: 'You answer questions about orders. Refunds need a person to approve them.',
    stopWhen: turnCountIs(8),
  });
  const result = await runInWorkflow(orchestrator, [{ role: 'user', content: question }]);
  return result.content;
}
