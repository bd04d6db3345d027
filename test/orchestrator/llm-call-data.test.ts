import { describe, expect, it } from 'vitest';
import type { ChatMessage, ModelResponse, TraceEventData } from '../../src/index.js';
import { llmCallData } from '../../src/orchestrator/llm-call-data.js';
import type { LlmCallFields } from '../../src/orchestrator/llm-call-data.js';

/** The plain object `llmCallData` stands for: a literal with a getter of its own. */
function llmCallDataReference(fields: LlmCallFields): TraceEventData['llm_call'] {
  const { sent, sentGrows, messageCount, response } = fields;
  let copy: readonly ChatMessage[] | undefined;
  return {
    get messages(): readonly ChatMessage[] {
      if (!sentGrows) return sent;
      return (copy ??= sent.slice(0, messageCount));
    },
    messageCount,
    response,
    usage: response.usage,
    durationMs: fields.durationMs,
    finalAnswer: fields.finalAnswer,
    ...(fields.contextTokens === undefined ? {} : { contextTokens: fields.contextTokens }),
    ...(fields.provider === undefined ? {} : { provider: fields.provider }),
    ...(fields.model === undefined ? {} : { model: fields.model }),
  };
}

const response: ModelResponse = {
  content: 'hi',
  finish_reason: 'stop',
  usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4, reasoningTokens: 0, cachedPromptTokens: 0 },
};

function data(
  sent: readonly ChatMessage[],
  sentGrows: boolean,
  contextTokens?: number,
  adapter: { provider?: string; model?: string } = {},
): TraceEventData['llm_call'] {
  return llmCallData({
    provider: adapter.provider,
    model: adapter.model,
    sent,
    sentGrows,
    messageCount: sent.length,
    response,
    durationMs: 5,
    finalAnswer: false,
    contextTokens,
  });
}

describe('llmCallData: the data of an llm_call event', () => {
  it('reads like the plain object it stands for: own enumerable keys in order, spread and JSON alike', () => {
    const sent: ChatMessage[] = [{ role: 'user', content: 'go' }];
    const plain = {
      messages: [{ role: 'user', content: 'go' }],
      messageCount: 1,
      response,
      usage: response.usage,
      durationMs: 5,
      finalAnswer: false,
    };
    const made = data(sent, true);
    expect(Object.keys(made)).toEqual(Object.keys(plain));
    expect({ ...made }).toEqual(plain);
    expect(JSON.parse(JSON.stringify(made))).toEqual(plain);
    expect('contextTokens' in made).toBe(false);
    expect(Object.keys(data(sent, true, 42))).toEqual([...Object.keys(plain), 'contextTokens']);
    expect(data(sent, true, 42).contextTokens).toBe(42);
    const named = data(sent, true, undefined, { provider: 'openai', model: 'gpt-5-mini' });
    expect(JSON.parse(JSON.stringify(named))).toEqual({ provider: 'openai', model: 'gpt-5-mini', ...plain });
    expect(Object.keys(named)).toEqual([...Object.keys(plain), 'provider', 'model']);
    expect('provider' in made || 'model' in made).toBe(false);
  });

  it('keeps the prefix that was sent from an array that grows, copied once on first read', () => {
    const transcript: ChatMessage[] = [{ role: 'user', content: 'go' }];
    const made = data(transcript, true);
    transcript.push({ role: 'assistant', content: 'later' });
    const first = made.messages;
    expect(first).toEqual([{ role: 'user', content: 'go' }]);
    expect(first).not.toBe(transcript);
    transcript.push({ role: 'user', content: 'more' });
    expect(made.messages).toBe(first);
  });

  it('agrees with the plain literal it stands for, field by field and after the sent array grew', () => {
    const optional = [undefined, 'x'] as const;
    for (const sentGrows of [true, false])
      for (const contextTokens of [undefined, 7])
        for (const provider of optional)
          for (const model of optional) {
            const transcript: ChatMessage[] = [{ role: 'user', content: 'go' }];
            const fields: LlmCallFields = {
              provider,
              model,
              sent: transcript,
              sentGrows,
              messageCount: 1,
              response,
              durationMs: 5,
              finalAnswer: sentGrows,
              contextTokens,
            };
            const made = llmCallData(fields);
            const reference = llmCallDataReference(fields);
            expect(Object.keys(made)).toEqual(Object.keys(reference));
            expect(Object.getOwnPropertyDescriptor(made, 'messages')).toMatchObject({ enumerable: true });
            transcript.push({ role: 'assistant', content: 'later' });
            expect(made.messages).toEqual(reference.messages);
            expect({ ...made }).toEqual({ ...reference });
            expect(JSON.stringify(made)).toBe(JSON.stringify(reference));
          }
  });

  it('hands out an array that does not grow as it is', () => {
    const copy: ChatMessage[] = [{ role: 'user', content: 'go' }];
    expect(data(copy, false).messages).toBe(copy);
  });
});
