// Run with: npx tsx examples/agent-approvals.ts
import { z } from 'zod';
import { MemoryCheckpointStore, ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const deleteFiles = defineTool({
  name: 'delete_files',
  description: 'Deletes files',
  parameters: z.object({ pattern: z.string() }),
  needsApproval: true,
  execute: async ({ pattern }) => `deleted ${pattern}`,
});

// A cleaning agent whose deletions need a person's yes, used as a tool by a lead agent.
const cleaner = new ToolOrchestrator(
  new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['delete_files', { pattern: '*.log' }, 'inner_1']]),
    (messages) => ScriptedAdapter.text(`cleaner: ${String(messages.at(-1)?.content)}`),
  ]),
  { delete_files: deleteFiles },
);
const store = new MemoryCheckpointStore();
const lead = new ToolOrchestrator(
  new ScriptedAdapter([
    ScriptedAdapter.toolCalls([['clean', { input: 'Delete the logs' }, 'outer_1']]),
    (messages) => ScriptedAdapter.text(`lead: ${String(messages.at(-1)?.content)}`),
  ]),
  { clean: cleaner.asTool({ name: 'clean', description: 'Cleans up files' }) },
  { checkpointStore: store },
);

// The cleaner's call waits for approval, so the lead's whole run pauses and lists it.
const paused = await lead.run([{ role: 'user', content: 'Clean up' }], undefined, { runId: 'cleanup' });
for (const approval of paused.pendingApprovals ?? []) {
  const path = (approval.agentPath ?? []).map((step) => `${step.toolName} (run ${step.runId})`).join(' > ');
  console.log(
    `${paused.stopReason}: ${approval.toolCallId} ${approval.name} ${approval.arguments} in ${path}`,
  );
}

// Later, maybe in another process with the same store: approve by the listed key and go on.
const result = await lead.resume('cleanup', { approvals: { 'outer_1/inner_1': { approved: true } } });
console.log(`${result.content} (${result.stopReason})`);
