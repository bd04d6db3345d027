import Anthropic from '@anthropic-ai/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../../../src/adapters/anthropic/index.js';
import { ToolOrchestrator } from '../../../src/orchestrator/tool-orchestrator.js';
import type { TraceEvent } from '../../../src/tracing/trace-events.js';
import { startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeAnthropicServer } from './fake-anthropic-server.js';

let server: FakeAnthropicServer;
let client: Anthropic;
beforeEach(async () => {
  server = await startFakeAnthropicServer();
  client = new Anthropic({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0, timeout: 5000 });
});
afterEach(() => server.close());

const adapter = (): AnthropicAdapter => new AnthropicAdapter({ model: 'claude-sonnet-4-6', client });

describe('AnthropicAdapter stop reasons through ToolOrchestrator', () => {
  for (const stream of [false, true]) {
    it(`ends the run with stopReason 'refusal' on stop_reason: refusal, and says so (stream: ${stream})`, async () => {
      server.enqueue({
        type: 'turn',
        stopReason: 'refusal',
        content: [{ type: 'text', text: 'I can not help.' }],
      });
      const events: TraceEvent[] = [];
      const orchestrator = new ToolOrchestrator(adapter(), {}, { stream });
      const result = await orchestrator.run([{ role: 'user', content: 'Something bad.' }], undefined, {
        onEvent: (event) => void events.push(event),
      });
      expect(result.stopReason).toBe('refusal');
      expect(result.content).toBe('I can not help.');
      expect(events.some((event) => event.type === 'warning' && event.data.code === 'refusal')).toBe(true);
      expect(server.requests).toHaveLength(1);
    });

    it(`sends a paused turn back so the server goes on (stream: ${stream})`, async () => {
      server.enqueue(
        { type: 'turn', stopReason: 'pause_turn', content: [{ type: 'text', text: 'Searching the web.' }] },
        { type: 'turn', content: [{ type: 'text', text: 'Found it.' }] },
      );
      const result = await new ToolOrchestrator(adapter(), {}, { stream }).run([
        { role: 'user', content: 'Search.' },
      ]);
      expect(result.stopReason).toBe('final');
      expect(result.content).toBe('Found it.');
      const messages = server.requests[1]!.body['messages'] as {
        role: string;
        content: Record<string, unknown>[];
      }[];
      expect(server.requests[1]!.refusal).toBeUndefined();
      expect(messages.map((message) => message.role)).toEqual(['user', 'assistant']);
      expect(messages[1]!.content[0]).toMatchObject({ type: 'text', text: 'Searching the web.' });
    });
  }
});
