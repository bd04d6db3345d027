import type { Usage } from '../../../src/index.js';
import { startFakeResponsesServer } from '../responses/fake-responses-server.js';
import type { ScriptedAnswer, ScriptedItem } from '../responses/fake-responses-server.js';
import { normalizedUsage } from './chat-completions-wire-server.js';
import type { Plan, PlannedTurn } from './conformance-plan.js';
import { waitForStalledStream } from './conformance-server.js';
import type { ConformanceServer, InjectedFailure } from './conformance-server.js';

type Item = Record<string, unknown>;

/**
 * Starts the fake OpenAI Responses server of `test/adapters/responses/` answering by `plan`: each
 * request gets the plan's turn for the number of assistant turns its input holds, with a reasoning
 * item (summary and encrypted content) before every answer. The fake server enforces the Responses
 * rules as OpenAI does (a reasoning item without its following item, a reasoning item by id only
 * under `store: false`, altered encrypted content, a `function_call_output` without its call, and
 * the other way round); each refusal it gives is a rejection here.
 */
export async function startResponsesConformanceServer(plan: Plan): Promise<ConformanceServer> {
  const issuedUsage: Usage[] = [];
  const failures: InjectedFailure[] = [];
  const injected = new Set<number>();
  let stalledIndex: number | undefined;

  const fake = await startFakeResponsesServer({
    script: (body, index) => {
      const failure = failures.shift();
      if (failure !== undefined) {
        injected.add(index);
        const type = failure.status === 429 ? 'rate_limit_error' : 'server_error';
        return {
          type: 'error',
          status: failure.status,
          body: { error: { message: failure.message ?? type, type, param: null, code: null } },
          ...(failure.headers === undefined ? {} : { headers: failure.headers }),
        };
      }
      const input = inputOf(body);
      const turn = assistantTurns(input);
      const planned = plan(turn);
      // About four characters a token, as the context window's estimate, which the usage corrects.
      const counted = normalizedUsage(turn, Math.ceil(JSON.stringify(input).length / 4));
      if (planned.stall === true) stalledIndex = index;
      else issuedUsage.push(counted);
      return answer(turn, planned, counted);
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
    issuedUsage,
    sentTranscript: (index) => {
      const input = inputOf(fake.requests.at(index)?.body ?? {});
      return {
        toolResults: new Map(
          input.flatMap((item) =>
            item['type'] === 'function_call_output'
              ? [[String(item['call_id']), outputText(item['output'])] as const]
              : [],
          ),
        ),
        assistantTurns: assistantTurns(input),
      };
    },
    failNext: (...more) => void failures.push(...more),
    stalledStreamClosed: () =>
      waitForStalledStream(() => (stalledIndex === undefined ? undefined : fake.disconnected(stalledIndex))),
    close: () => fake.close(),
  };
}

function inputOf(body: Record<string, unknown>): Item[] {
  return Array.isArray(body['input']) ? (body['input'] as Item[]) : [];
}

/** The model's own items: reasoning, function calls and assistant messages. */
function isAssistantItem(item: Item): boolean {
  return item['type'] === 'reasoning' || item['type'] === 'function_call' || item['role'] === 'assistant';
}

/** How many assistant turns the input holds: each run of the model's own items is one. */
function assistantTurns(input: readonly Item[]): number {
  return input.filter((item, index) => isAssistantItem(item) && !isAssistantItem(input[index - 1] ?? {}))
    .length;
}

/** A tool result's text: a string output, or the text of its content parts. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return JSON.stringify(output);
  return (output as Item[]).map((part) => (typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

/** The Responses answer to a planned turn: reasoning, then the message or the function calls. */
function answer(turn: number, planned: PlannedTurn, counted: Usage): ScriptedAnswer {
  const usage = {
    input_tokens: counted.promptTokens,
    input_tokens_details: { cached_tokens: counted.cachedPromptTokens },
    output_tokens: counted.completionTokens,
    output_tokens_details: { reasoning_tokens: counted.reasoningTokens },
    total_tokens: counted.totalTokens,
  };
  if (planned.stall === true) {
    // The message alone: response.created, response.in_progress, output_item.added,
    // content_part.added, then its first text delta, and nothing more until the client leaves.
    return {
      type: 'turn',
      output: [{ type: 'message', text: planned.content ?? '' }],
      usage,
      hangAfterEvents: 5,
    };
  }
  const output: ScriptedItem[] = [
    { type: 'reasoning', summary: [`Turn ${turn}: what do I know, what is missing?`] },
    ...(planned.content === undefined ? [] : [{ type: 'message' as const, text: planned.content }]),
    ...(planned.calls ?? []).map((call) => ({
      type: 'function_call' as const,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    })),
  ];
  return { type: 'turn', output, usage };
}
