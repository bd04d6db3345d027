import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from '../../src/index.js';
import type { ModelAdapter, TraceEvent } from '../../src/index.js';
import { ScriptedAdapter } from '../../src/testing/index.js';

/** Every string that must never reach an event in metadata mode. */
const secrets = {
  system: 'SYSTEM-PROMPT-SECRET',
  user: 'USER-MESSAGE-SECRET',
  argument: 'ARGUMENT-SECRET',
  badJson: 'BAD-JSON-SECRET',
  result: 'RESULT-SECRET',
  thrown: 'THROWN-SECRET',
  reasoning: 'REASONING-SECRET',
  content: 'CONTENT-SECRET',
  repaired: 'REPAIRED-ARGUMENT-SECRET',
};

const vault = defineTool({
  name: 'vault',
  description: 'Reads a secret',
  parameters: z.object({ key: z.string() }),
  execute: ({ key }) => {
    if (key === 'broken') throw new Error(`cannot open ${secrets.thrown}`);
    return { value: `${secrets.result} for ${key}` };
  },
});

function script() {
  return [
    ScriptedAdapter.toolCalls(
      [
        ['vault', { key: 'broken' }, 'v1'],
        ['vault', `{"key": "${secrets.badJson}"`, 'v2'],
        // Three in a row: the third is blocked, and its error quotes the earlier result.
        ['vault', { key: secrets.argument }, 'v3'],
        ['vault', { key: secrets.argument }, 'v4'],
        ['vault', { key: secrets.argument }, 'v5'],
      ],
      {
        content: `thinking about ${secrets.content}`,
        reasoning_content: `because ${secrets.reasoning}`,
        usage: {
          promptTokens: 11,
          completionTokens: 7,
          totalTokens: 18,
          reasoningTokens: 2,
          cachedPromptTokens: 0,
        },
      },
    ),
    ScriptedAdapter.text(`The answer is ${secrets.content}.`, { reasoning_content: secrets.reasoning }),
  ];
}

async function runInMetadataMode(stream: boolean) {
  const fromEmitter: TraceEvent[] = [];
  const fromListener: TraceEvent[] = [];
  const fromOnEvent: TraceEvent[] = [];
  const orchestrator = new ToolOrchestrator(
    new ScriptedAdapter(script(), { streamChunkSize: 5 }),
    { vault },
    {
      traceContent: 'metadata',
      stream,
      traceEmitter: (event) => void fromEmitter.push(event),
      // Repairs the cut JSON, so tool_call_repaired carries arguments too.
      repairToolCall: ({ toolCall, error }) =>
        error.code === 'invalid_json'
          ? { ...toolCall, function: { ...toolCall.function, arguments: `{"key":"${secrets.repaired}"}` } }
          : null,
    },
  );
  orchestrator.on('*', (event) => void fromListener.push(event));
  const run = orchestrator.stream([{ role: 'user', content: secrets.user }], secrets.system, {
    onEvent: (event) => void fromOnEvent.push(event),
  });
  const fromStream: TraceEvent[] = [];
  for await (const event of run) fromStream.push(event);
  const text: string[] = [];
  for await (const chunk of run.textStream) text.push(chunk);
  const result = await run.result;
  return { result, text, all: [result.traces, fromEmitter, fromListener, fromOnEvent, fromStream] };
}

describe("traceContent: 'metadata'", () => {
  for (const stream of [false, true]) {
    it(`puts no message text, argument, result or error text in any event (${stream ? 'streaming' : 'not streaming'})`, async () => {
      const { result, text, all } = await runInMetadataMode(stream);
      for (const events of all) {
        expect(events).toHaveLength(result.traces.length);
        const serialized = JSON.stringify(events);
        for (const secret of Object.values(secrets)) expect(serialized).not.toContain(secret);
      }
      const types = new Set(result.traces.map((event) => event.type));
      // The events that would carry the secrets were all emitted.
      for (const type of [
        'llm_call',
        'tool_call',
        'tool_call_repaired',
        'tool_result',
        'reasoning_content',
        'warning',
      ]) {
        expect(types, type).toContain(type);
      }
      if (stream) expect(types).toContain('content_delta');
      // What metadata mode keeps: names, ids, counts, sizes, usage, durations and error codes.
      const llmCall = result.traces.find((event) => event.type === 'llm_call')!;
      expect(llmCall.data.messageCount).toBe(2);
      expect(llmCall.data.messages).toEqual([]);
      expect(llmCall.data.usage).toMatchObject({ totalTokens: 18 });
      expect(
        llmCall.data.response.tool_calls?.map((call) => [
          call.id,
          call.function.name,
          call.function.arguments,
        ]),
      ).toEqual([
        ['v1', 'vault', ''],
        ['v2', 'vault', ''],
        ['v3', 'vault', ''],
        ['v4', 'vault', ''],
        ['v5', 'vault', ''],
      ]);
      const toolResults = result.traces.filter((event) => event.type === 'tool_result');
      expect(
        toolResults.map((event) => [event.data.toolCallId, event.data.name, event.data.errorCode ?? null]),
      ).toEqual([
        ['v1', 'vault', 'tool_error'],
        ['v2', 'vault', null],
        ['v3', 'vault', null],
        ['v4', 'vault', null],
        ['v5', 'vault', 'repeated_tool_call'],
      ]);
      const transcriptTools = result.messages.filter((message) => message.role === 'tool');
      expect(toolResults.map((event) => event.data.contentLength)).toEqual(
        transcriptTools.map((message) => message.content.length),
      );
      expect(toolResults.every((event) => typeof event.data.durationMs === 'number')).toBe(true);
      // The run's own result is the caller's data and keeps everything.
      expect(result.content).toBe(`The answer is ${secrets.content}.`);
      expect(JSON.stringify(result.messages)).toContain(secrets.result);
      expect(text.join('')).toContain(secrets.content);
    });
  }

  it("'full' (the default) keeps the text, so the test above can fail", async () => {
    const result = await new ToolOrchestrator(new ScriptedAdapter(script()), { vault }).run(
      [{ role: 'user', content: secrets.user }],
      secrets.system,
    );
    const serialized = JSON.stringify(result.traces);
    for (const secret of [
      secrets.system,
      secrets.user,
      secrets.argument,
      secrets.result,
      secrets.thrown,
      secrets.reasoning,
    ]) {
      expect(serialized).toContain(secret);
    }
  });

  it('strips the message of an error event, which can quote a response', async () => {
    const adapter: ModelAdapter = { call: async () => ({ content: { secret: secrets.content } }) as never };
    const events: TraceEvent[] = [];
    await expect(
      new ToolOrchestrator(
        adapter,
        {},
        { traceContent: 'metadata', traceEmitter: (event) => void events.push(event) },
      ).run([{ role: 'user', content: 'go' }]),
    ).rejects.toThrow(secrets.content);
    expect(events.find((event) => event.type === 'error')?.data).toEqual({
      name: 'UnexpectedResponseError',
      code: 'model_error',
      message: '',
    });
    expect(JSON.stringify(events)).not.toContain(secrets.content);
  });
});
