// Run with: npx tsx examples/stream-traces.ts [trace.jsonl]
// Writes every trace event to a JSONL file (by default in the system's temp folder, so a run leaves
// nothing behind in your working tree) and prints a live summary while a streamed run goes on.
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { TraceEvent } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const path = process.argv[2] ?? join(tmpdir(), 'tool-orchestrator-stream-traces.jsonl');
const file = createWriteStream(path);

const lookup = defineTool({
  name: 'lookup',
  description: 'Look up a word in the dictionary',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a small, fast thing`,
});

const adapter = new ScriptedAdapter(
  [
    ScriptedAdapter.toolCalls([['lookup', { word: 'orchestrator' }]], {
      reasoning_content: 'I should look it up first.',
    }),
    ScriptedAdapter.text('An orchestrator coordinates tools for a model, one turn at a time.'),
  ],
  { streamChunkSize: 6, delayMs: 50 },
);

function summarize(event: TraceEvent): void {
  switch (event.type) {
    case 'reasoning_delta':
    case 'content_delta':
      process.stdout.write(event.data.delta);
      break;
    case 'llm_call':
      process.stdout.write(
        `\n[turn ${event.turn + 1}: model call took ${event.data.durationMs.toFixed(0)} ms]\n`,
      );
      break;
    case 'tool_result':
      console.log(`[${event.data.name} -> ${event.data.content}]`);
      break;
    case 'run_end':
      console.log(`[done: ${event.data.stopReason} after ${event.data.turns} turns]`);
      break;
    default:
      break;
  }
}

const orchestrator = new ToolOrchestrator(
  adapter,
  { lookup },
  {
    stream: true,
    traceEmitter: (event) => {
      file.write(`${JSON.stringify(event)}\n`);
      summarize(event);
    },
  },
);
await orchestrator.run([{ role: 'user', content: 'What is an orchestrator?' }]);
file.end(() => console.log(`trace written to ${path}`));
