import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OpenAIResponsesAdapter } from '../../../src/adapters/openai/index.js';
import { FileCheckpointStore } from '../../../src/durable/file-checkpoint-store.js';
import type { AssistantMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeResponsesServer } from './fake-responses-server.js';
import type { FakeResponsesServer } from './fake-responses-server.js';

let server: FakeResponsesServer;
let directory: string;
beforeEach(async () => {
  server = await startFakeResponsesServer();
  directory = mkdtempSync(join(tmpdir(), 'responses-resume-'));
});
afterEach(async () => {
  rmSync(directory, { recursive: true, force: true });
  await server.close();
});

const remove = defineTool({
  name: 'remove',
  description: 'Delete a file',
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => `removed ${path}`,
});

/** An orchestrator as a fresh process builds it: its own client, adapter and store over the same directory. */
function freshOrchestrator(): ToolOrchestrator {
  const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
  return new ToolOrchestrator(
    new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client }),
    { remove },
    { checkpointStore: new FileCheckpointStore({ dir: directory }) },
  );
}

describe('OpenAIResponsesAdapter with a paused, saved and resumed run', () => {
  it('sends the reasoning item back byte for byte after a pause for approval and a resume from the file store', async () => {
    server.enqueue(
      {
        type: 'turn',
        output: [
          { type: 'reasoning', summary: ['Delete it, once approved.'] },
          { type: 'function_call', name: 'remove', arguments: '{"path":"a.txt"}' },
        ],
      },
      { type: 'turn', output: [{ type: 'message', text: 'Removed a.txt.' }] },
    );
    const paused = await freshOrchestrator().run([{ role: 'user', content: 'Delete a.txt' }]);
    expect(paused.stopReason).toBe('awaiting_approval');
    const assistant = paused.messages.find(
      (message): message is AssistantMessage => message.role === 'assistant',
    );
    const issued = assistant?.reasoning?.[0]?.providerData?.['openai.responses'];
    const callId = assistant?.tool_calls?.[0]?.id ?? '';

    const resumed = await freshOrchestrator().resume(paused.runId, {
      approvals: { [callId]: { approved: true } },
    });
    expect(resumed.content).toBe('Removed a.txt.');
    expect(server.requests.map((request) => request.refusal)).toEqual([undefined, undefined]);
    const input = server.requests[1]!.body['input'] as Record<string, unknown>[];
    expect(input.find((item) => item['type'] === 'reasoning')).toEqual(issued);
    expect(input.find((item) => item['type'] === 'function_call_output')).toEqual({
      type: 'function_call_output',
      call_id: callId,
      output: 'removed a.txt',
    });
  });
});
