import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { FileCheckpointStore } from '../../../src/durable/file-checkpoint-store.js';
import type { AssistantMessage } from '../../../src/model/messages.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import { defineTool } from '../../../src/tools/define-tool.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let directory: string;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  directory = mkdtempSync(join(tmpdir(), 'anthropic-resume-'));
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
  const client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
  return new ToolOrchestrator(
    new AnthropicAdapter({
      model: 'claude-sonnet-4-6',
      client,
      thinking: { type: 'enabled', budgetTokens: 2048 },
    }),
    { remove },
    { checkpointStore: new FileCheckpointStore({ dir: directory }) },
  );
}

describe('AnthropicAdapter with a paused, saved and resumed run', () => {
  it('sends the thinking blocks back byte for byte after a pause for approval and a resume from the file store', async () => {
    server.enqueue(
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'Delete it, once approved.' },
          { type: 'redacted_thinking' },
          { type: 'tool_use', name: 'remove', input: { path: 'a.txt' } },
        ],
      },
      {
        type: 'turn',
        content: [
          { type: 'thinking', thinking: 'Gone.' },
          { type: 'text', text: 'Removed a.txt.' },
        ],
      },
    );
    const paused = await freshOrchestrator().run([{ role: 'user', content: 'Delete a.txt' }]);
    expect(paused.stopReason).toBe('awaiting_approval');
    const assistant = paused.messages.find(
      (message): message is AssistantMessage => message.role === 'assistant',
    );
    const issued = assistant?.reasoning?.map((part) => part.providerData?.['anthropic.messages']);
    const callId = assistant?.tool_calls?.[0]?.id ?? '';

    const resumed = await freshOrchestrator().resume(paused.runId, {
      approvals: { [callId]: { approved: true } },
    });
    expect(resumed.content).toBe('Removed a.txt.');
    expect(server.requests.map((request) => request.refusal)).toEqual([undefined, undefined]);
    const messages = server.requests[1]!.body['messages'] as { content: Record<string, unknown>[] }[];
    expect(messages[1]!.content.slice(0, 2)).toEqual(issued);
    expect(messages[2]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: callId,
        content: 'removed a.txt',
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });
});
