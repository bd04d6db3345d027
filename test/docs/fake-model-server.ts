import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunk, completion } from '../adapters/fake-openai-server.js';

/** The text every plain chat completion answers with. */
export const fakeModelAnswer = 'Done.';

/**
 * The answer to a request for a JSON object: one object that every structured flow the docs run
 * accepts, since their schemas drop keys they do not know. It is an exploration round that needs no
 * more context (`exploreContext`) and an explorer report with no findings (`runExplorer`).
 */
export const fakeModelJsonAnswer = {
  requests: [],
  question: 'the question asked',
  inferredUserGoal: null,
  confidence: 0.5,
  repoMap: { entrypoints: [], keyDirs: [], configs: [], commands: [] },
  findings: [],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
} as const;

/** A running {@link startFakeModelServer}. */
export interface FakeModelServer {
  /** `http://127.0.0.1:PORT`; the Chat Completions base URL is this plus `/v1`. */
  readonly origin: string;
  /** How many chat completions each code block asked for, by its `x-docs-snippet` header. */
  readonly callsBySnippet: ReadonlyMap<string, number>;
  /** The provider hosts whose requests were routed here, by the `x-docs-routed-from` header. */
  readonly routedHosts: ReadonlySet<string>;
  /** How many OTLP/HTTP span exports arrived at `/v1/traces`, each answered with success. */
  readonly spanExports: number;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

interface ChatRequest {
  readonly stream?: boolean;
  readonly stream_options?: { readonly include_usage?: boolean };
  readonly response_format?: { readonly type?: string };
  readonly messages?: readonly { readonly role?: string; readonly content?: unknown }[];
}

/** Whether the request asks for a JSON object: by its response format, or in a system prompt. */
function asksForJson(request: ChatRequest): boolean {
  if (request.response_format?.type !== undefined && request.response_format.type !== 'text') return true;
  return (request.messages ?? []).some(
    (message) =>
      (message.role === 'system' || message.role === 'developer') &&
      typeof message.content === 'string' &&
      message.content.includes('JSON'),
  );
}

const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };

/**
 * Starts an OpenAI-compatible model on 127.0.0.1 (port 0) for the docs' code blocks: every chat
 * completion, at any path ending in `/chat/completions`, streamed or not, is a final answer with
 * no tool calls: {@link fakeModelAnswer}, or {@link fakeModelJsonAnswer} when the request asks for
 * a JSON object. It is also an OpenTelemetry collector: an OTLP/HTTP export to `/v1/traces`
 * succeeds. Anything else gets a 404.
 */
export async function startFakeModelServer(): Promise<FakeModelServer> {
  const callsBySnippet = new Map<string, number>();
  const routedHosts = new Set<string>();
  let spanExports = 0;
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      if (request.method === 'POST' && request.url === '/v1/traces') {
        spanExports++;
        sendJson(response, 200, {});
        return;
      }
      if (request.method !== 'POST' || !(request.url ?? '').endsWith('/chat/completions')) {
        sendJson(response, 404, { error: { message: `fake model: no ${request.method} ${request.url}` } });
        return;
      }
      const snippet = String(request.headers['x-docs-snippet'] ?? 'unknown');
      callsBySnippet.set(snippet, (callsBySnippet.get(snippet) ?? 0) + 1);
      const routedFrom = request.headers['x-docs-routed-from'];
      if (typeof routedFrom === 'string') routedHosts.add(routedFrom);
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as ChatRequest;
      } catch {
        sendJson(response, 400, { error: { message: 'fake model: the body is not JSON' } });
        return;
      }
      const content = asksForJson(body) ? JSON.stringify(fakeModelJsonAnswer) : fakeModelAnswer;
      if (body.stream !== true) {
        sendJson(response, 200, completion({ content }, { usage }));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const items = [
        chunk({ role: 'assistant', content }),
        chunk({}, { finish_reason: 'stop' }),
        ...(body.stream_options?.include_usage === true ? [chunk(null, { usage })] : []),
      ];
      for (const item of items) response.write(`data: ${JSON.stringify(item.data)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    callsBySnippet,
    routedHosts,
    get spanExports() {
      return spanExports;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sendJson(response: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}
