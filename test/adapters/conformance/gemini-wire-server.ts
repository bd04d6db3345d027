import type { Usage } from '../../../src/index.js';
import { startFakeGeminiServer } from '../gemini/fake-gemini-server.js';
import type { ScriptedAnswer, ScriptedPart, UsageMetadata } from '../gemini/fake-gemini-server.js';
import type { Plan, PlannedTurn } from './conformance-plan.js';
import { waitForStalledStream } from './conformance-server.js';
import type { ConformanceServer, InjectedFailure } from './conformance-server.js';

type Part = Record<string, unknown>;
type Content = { readonly role?: unknown; readonly parts?: unknown };

/**
 * Starts the fake Gemini server of `test/adapters/gemini/` answering by `plan`: each request gets
 * the plan's turn for the number of model contents it holds, with a thought summary before every
 * answer, the first function call signed (and every call given an id, as Gemini 3 does), or the
 * text signed when there is no call. The fake server enforces the Gemini rules (each signature on
 * the part it was issued on, the current turn's first call signed, function responses answering
 * the calls before them, roles); each refusal it gives is a rejection here. An injected failure's
 * `retry-after-ms` becomes a `RetryInfo` detail, which is how Gemini says how long to wait.
 */
export async function startGeminiConformanceServer(plan: Plan): Promise<ConformanceServer> {
  const failures: InjectedFailure[] = [];
  const injected = new Set<number>();
  const stalled = new Set<number>();
  let stalledIndex: number | undefined;
  let calls = 0;

  const fake = await startFakeGeminiServer({
    script: (body, index) => {
      const failure = failures.shift();
      if (failure !== undefined) {
        injected.add(index);
        const waitMs = failure.headers?.['retry-after-ms'];
        const statusName =
          failure.status === 429 ? 'RESOURCE_EXHAUSTED' : failure.status === 503 ? 'UNAVAILABLE' : 'INTERNAL';
        return {
          type: 'error',
          status: failure.status,
          statusName,
          message: failure.message ?? statusName,
          ...(waitMs === undefined
            ? {}
            : {
                details: [
                  {
                    '@type': 'type.googleapis.com/google.rpc.RetryInfo',
                    retryDelay: `${Number(waitMs) / 1000}s`,
                  },
                ],
              }),
        };
      }
      const turn = modelTurns(contentsOf(body));
      const planned = plan(turn);
      if (planned.stall === true) {
        stalledIndex = index;
        stalled.add(index);
      }
      return answer(turn, planned, () => `fc_${String(++calls).padStart(4, '0')}`);
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
      const contents = contentsOf(fake.requests.at(index)?.body ?? {});
      const toolResults = new Map<string, string>();
      for (const content of contents) {
        if (content.role !== 'user') continue;
        for (const part of partsOf(content)) {
          const response = part['functionResponse'] as Part | undefined;
          if (response === undefined) continue;
          const result = response['response'] as Part | undefined;
          toolResults.set(String(response['id']), String(result?.['output'] ?? JSON.stringify(result)));
        }
      }
      return { toolResults, assistantTurns: modelTurns(contents) };
    },
    failNext: (...more) => void failures.push(...more),
    stalledStreamClosed: () =>
      waitForStalledStream(() => (stalledIndex === undefined ? undefined : fake.disconnected(stalledIndex))),
    close: () => fake.close(),
  };
}

function contentsOf(body: Record<string, unknown>): Content[] {
  return Array.isArray(body['contents']) ? (body['contents'] as Content[]) : [];
}

function partsOf(content: Content): Part[] {
  return Array.isArray(content.parts) ? (content.parts as Part[]) : [];
}

function modelTurns(contents: readonly Content[]): number {
  return contents.filter((content) => content.role === 'model').length;
}

/** Gemini's usage as the adapter normalises it: completion tokens include the thoughts. */
function normalized(usage: UsageMetadata): Usage {
  const thoughts = usage.thoughtsTokenCount ?? 0;
  const completionTokens = usage.candidatesTokenCount + thoughts;
  return {
    promptTokens: usage.promptTokenCount,
    completionTokens,
    totalTokens: usage.promptTokenCount + completionTokens,
    reasoningTokens: thoughts,
    cachedPromptTokens: usage.cachedContentTokenCount ?? 0,
  };
}

/** The answer to a planned turn: a thought summary, then the text or the calls. */
function answer(turn: number, planned: PlannedTurn, nextId: () => string): ScriptedAnswer {
  if (planned.stall === true) {
    // The text's first piece; nothing more until the client leaves.
    return { type: 'turn', parts: [{ type: 'text', text: planned.content ?? '' }], hangAfterChunks: 1 };
  }
  const calls = planned.calls ?? [];
  const parts: ScriptedPart[] = [
    { type: 'thought', text: `Turn ${turn}: what do I know, what is missing?` },
    ...(planned.content === undefined
      ? []
      : [{ type: 'text' as const, text: planned.content, signed: calls.length === 0 }]),
    ...calls.map((call) => ({
      type: 'call' as const,
      name: call.name,
      args: { ...call.arguments },
      id: nextId(),
    })),
  ];
  return { type: 'turn', parts };
}
