import type { Usage } from '../../../src/index.js';
import { startFakeAnthropicServer } from '../anthropic/fake-anthropic-server.js';
import type { ScriptedAnswer, ScriptedBlock } from '../anthropic/fake-anthropic-server.js';
import type { Plan, PlannedTurn } from './conformance-plan.js';
import { waitForStalledStream } from './conformance-server.js';
import type { ConformanceServer, InjectedFailure } from './conformance-server.js';

type Block = Record<string, unknown>;
type Message = { readonly role?: unknown; readonly content?: unknown };

/**
 * Starts the fake Anthropic Messages server of `test/adapters/anthropic/` answering by `plan`: each
 * request gets the plan's turn for the number of assistant messages it holds, with a signed
 * thinking block before every answer. The fake server enforces the Messages rules as Anthropic does
 * (thinking blocks replayed byte-for-byte before their `tool_use`, roles alternating, every
 * `tool_use` answered in the next user message, at most 4 cache breakpoints) and counts prompt
 * caching as Anthropic reports it; each refusal it gives is a rejection here.
 */
export async function startAnthropicConformanceServer(plan: Plan): Promise<ConformanceServer> {
  const failures: InjectedFailure[] = [];
  const injected = new Set<number>();
  const stalled = new Set<number>();
  let stalledIndex: number | undefined;

  const fake = await startFakeAnthropicServer({
    script: (body, index) => {
      const failure = failures.shift();
      if (failure !== undefined) {
        injected.add(index);
        const errorType =
          failure.status === 429
            ? 'rate_limit_error'
            : failure.status === 529
              ? 'overloaded_error'
              : 'api_error';
        return {
          type: 'error',
          status: failure.status,
          errorType,
          message: failure.message ?? errorType,
          ...(failure.headers === undefined ? {} : { headers: failure.headers }),
        };
      }
      const turn = assistantTurns(messagesOf(body));
      const planned = plan(turn);
      if (planned.stall === true) {
        stalledIndex = index;
        stalled.add(index);
      }
      return answer(turn, planned);
    },
  });

  return {
    baseURL: fake.baseURL,
    get requests() {
      return fake.requests.map((request) => request.body);
    },
    get rejections() {
      return fake.requests.flatMap((request, index) =>
        request.refusal !== undefined && !injected.has(index) ? [request.refusal] : [],
      );
    },
    get issuedUsage() {
      return fake.requests.flatMap((request, index) =>
        request.usage === undefined || stalled.has(index) ? [] : [normalized(request.usage)],
      );
    },
    sentTranscript: (index) => {
      const messages = messagesOf(fake.requests.at(index)?.body ?? {});
      const toolResults = new Map<string, string>();
      for (const message of messages) {
        if (message.role !== 'user' || !Array.isArray(message.content)) continue;
        for (const block of message.content as Block[]) {
          if (block['type'] === 'tool_result')
            toolResults.set(String(block['tool_use_id']), resultText(block));
        }
      }
      return { toolResults, assistantTurns: assistantTurns(messages) };
    },
    failNext: (...more) => void failures.push(...more),
    stalledStreamClosed: () =>
      waitForStalledStream(() => (stalledIndex === undefined ? undefined : fake.disconnected(stalledIndex))),
    close: () => fake.close(),
  };
}

function messagesOf(body: Record<string, unknown>): Message[] {
  return Array.isArray(body['messages']) ? (body['messages'] as Message[]) : [];
}

function assistantTurns(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}

/** A tool result's text: a string content, or the text of its blocks. */
function resultText(block: Block): string {
  const content = block['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return (content as Block[]).map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** Anthropic's usage as the adapter normalises it: prompt tokens include cache reads and writes. */
function normalized(usage: {
  readonly input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly output_tokens: number;
}): Usage {
  const promptTokens = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  return {
    promptTokens,
    completionTokens: usage.output_tokens,
    totalTokens: promptTokens + usage.output_tokens,
    reasoningTokens: 0,
    cachedPromptTokens: usage.cache_read_input_tokens,
    cacheWriteTokens: usage.cache_creation_input_tokens,
  };
}

/** The Messages answer to a planned turn: a thinking block, then the text or the tool uses. */
function answer(turn: number, planned: PlannedTurn): ScriptedAnswer {
  if (planned.stall === true) {
    // message_start, ping, the text block's start and its first piece; nothing more until the client leaves.
    return { type: 'turn', content: [{ type: 'text', text: planned.content ?? '' }], hangAfterEvents: 4 };
  }
  const content: ScriptedBlock[] = [
    { type: 'thinking', thinking: `Turn ${turn}: what do I know, what is missing?` },
    ...(planned.content === undefined ? [] : [{ type: 'text' as const, text: planned.content }]),
    ...(planned.calls ?? []).map((call) => ({
      type: 'tool_use' as const,
      name: call.name,
      input: { ...call.arguments },
    })),
  ];
  return { type: 'turn', content };
}
