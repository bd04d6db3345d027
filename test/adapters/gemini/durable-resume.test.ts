import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GoogleGenAI } from '@google/genai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { GeminiAdapter } from '../../../src/adapters/gemini/index.js';
import { FileCheckpointStore } from '../../../src/durable/file-checkpoint-store.js';
import type { AssistantMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeGeminiServer } from './fake-gemini-server.js';
import type { FakeGeminiServer } from './fake-gemini-server.js';

let server: FakeGeminiServer;
let directory: string;
beforeEach(async () => {
  server = await startFakeGeminiServer();
  directory = mkdtempSync(join(tmpdir(), 'gemini-resume-'));
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
  const client = new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: server.baseURL } });
  return new ToolOrchestrator(
    new GeminiAdapter({
      model: 'gemini-3-flash-preview',
      client,
      timeout: 5000,
      thinking: { thinkingLevel: 'LOW', includeThoughts: true },
    }),
    { remove },
    { checkpointStore: new FileCheckpointStore({ dir: directory }) },
  );
}

describe('GeminiAdapter with a paused, saved and resumed run', () => {
  it('sends the thought signatures back on their parts after a pause for approval and a resume from the file store', async () => {
    server.enqueue(
      {
        type: 'turn',
        parts: [
          { type: 'thought', text: 'Delete both, once approved.', signed: true },
          { type: 'call', name: 'remove', args: { path: 'a.txt' } },
          { type: 'call', name: 'remove', args: { path: 'b.txt' } },
        ],
      },
      { type: 'turn', parts: [{ type: 'text', text: 'Removed both.' }] },
    );
    const paused = await freshOrchestrator().run([{ role: 'user', content: 'Delete a.txt and b.txt' }]);
    expect(paused.stopReason).toBe('awaiting_approval');
    const assistant = paused.messages.find(
      (message): message is AssistantMessage => message.role === 'assistant',
    );
    const issued = assistant?.providerData?.['gemini.generate_content']?.['parts'];
    const approvals = Object.fromEntries(
      (assistant?.tool_calls ?? []).map((call) => [call.id, { approved: true }]),
    );

    const resumed = await freshOrchestrator().resume(paused.runId, { approvals });
    expect(resumed.content).toBe('Removed both.');
    expect(server.requests.map((request) => request.refusal)).toEqual([undefined, undefined]);
    const contents = server.requests[1]!.body['contents'] as { parts: Record<string, unknown>[] }[];
    expect(contents[1]!.parts).toEqual(issued);
    expect(contents[1]!.parts.map((part) => typeof part['thoughtSignature'])).toEqual([
      'string',
      'string',
      'undefined',
    ]);
    expect(contents[2]!.parts).toEqual([
      { functionResponse: { name: 'remove', response: { output: 'removed a.txt' } } },
      { functionResponse: { name: 'remove', response: { output: 'removed b.txt' } } },
    ]);
  });
});
