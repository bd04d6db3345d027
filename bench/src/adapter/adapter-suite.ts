/**
 * Each adapter's cost per call against its official client called directly with the payload the
 * adapter sends, over HTTP to a local server answering the same bytes: request building and response
 * parsing, JSON and streamed. The two alternate call by call in one process, so the machine's drift
 * falls on both alike.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import type { GenerateContentParameters } from '@google/genai';
import OpenAI from 'openai';
import type { ModelAdapter, ModelToolDefinition } from 'tool-orchestrator';
import { AnthropicAdapter } from 'tool-orchestrator/anthropic';
import { GeminiAdapter } from 'tool-orchestrator/gemini';
import { OpenAIAdapter, OpenAIResponsesAdapter } from 'tool-orchestrator/openai';
import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median, percentile } from '../measure.js';
import { chatJson, chatSse, responsesJson, responsesSse } from './adapter-payloads.js';
import { anthropicJson, anthropicSse } from './anthropic-payloads.js';
import { geminiJson, geminiSse } from './gemini-payloads.js';

export interface AdapterSuiteOptions {
  readonly rounds: number;
  /** Calls of each kind per round, after as many warm-up calls. */
  readonly calls: number;
  readonly log: (line: string) => void;
}

const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Weather in Paris?' },
];
const parameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
const tools: ModelToolDefinition[] = [
  { type: 'function', function: { name: 'get_weather', description: 'Weather', parameters } },
];

interface Job {
  readonly name: string;
  readonly bare: () => Promise<void>;
  readonly adapter: () => Promise<void>;
}

export async function runAdapterSuite(options: AdapterSuiteOptions): Promise<{ markdown: string }> {
  /** The last Messages API request body: the bare client sends what the adapter sent. */
  let lastAnthropicBody: Record<string, unknown> = {};
  const server = createServer((request, reply) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      // Gemini asks for a stream in its URL (`:streamGenerateContent?alt=sse`), the others in the body.
      const stream = body['stream'] === true || request.url?.includes(':streamGenerateContent') === true;
      reply.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json' });
      if (request.url?.startsWith('/v1beta/models/') === true) {
        reply.end(stream ? geminiSse : geminiJson);
        return;
      }
      if (request.url === '/v1/messages') {
        lastAnthropicBody = body;
        reply.end(stream ? anthropicSse : anthropicJson);
        return;
      }
      const responses = request.url === '/v1/responses';
      reply.end(responses ? (stream ? responsesSse : responsesJson) : stream ? chatSse : chatJson);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
  const anthropicClient = new Anthropic({
    apiKey: 'bench',
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    maxRetries: 0,
  });
  const anthropic: ModelAdapter = new AnthropicAdapter({
    model: 'claude-sonnet-4-6',
    client: anthropicClient,
  });
  // The payload the adapter sends (system and tools with their cache breakpoints, max_tokens), for the bare client.
  await anthropic.call(messages, tools);
  const anthropicBody = { ...lastAnthropicBody } as unknown as Anthropic.MessageCreateParamsNonStreaming;
  const genai = new GoogleGenAI({
    apiKey: 'bench',
    httpOptions: { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` },
  });
  const gemini: ModelAdapter = new GeminiAdapter({ model: 'gemini-2.5-flash', client: genai });
  // The parameters the adapter passes the client (contents, config with tools and thinking), for the bare client.
  const generate = genai.models.generateContent.bind(genai.models);
  let geminiRequest: GenerateContentParameters | undefined;
  genai.models.generateContent = (parameters) => {
    geminiRequest = parameters;
    return generate(parameters);
  };
  await gemini.call(messages, tools);
  genai.models.generateContent = generate;
  if (geminiRequest === undefined) throw new Error('the Gemini adapter did not call models.generateContent');
  // The bare client gets the per-attempt timeout the adapter enforces (600 s by default). The
  // `openai` and Anthropic clients always arm one; `@google/genai` arms none by default, and then
  // sends no signal at all, which no adapter that honours a timeout or an abort can match.
  const { abortSignal: _signal, ...geminiConfig } = geminiRequest.config ?? {};
  const geminiBody: GenerateContentParameters = {
    ...geminiRequest,
    config: { ...geminiConfig, httpOptions: { ...geminiConfig.httpOptions, timeout: 600_000 } },
  };
  const geminiBodyWithoutTimeout: GenerateContentParameters = { ...geminiRequest, config: geminiConfig };
  const chat: ModelAdapter = new OpenAIAdapter({ model: 'gpt-5-mini', client });
  const responses: ModelAdapter = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', client });
  const chatBody = {
    model: 'gpt-5-mini',
    messages,
    tools: tools.map((tool) => ({ type: 'function' as const, function: tool.function })),
  };
  const responsesBody = {
    model: 'gpt-5-mini',
    input: messages,
    store: false,
    include: ['reasoning.encrypted_content' as const],
    tools: [
      { type: 'function' as const, name: 'get_weather', description: 'Weather', parameters, strict: false },
    ],
  };
  const drain = async (events: AsyncIterable<unknown>): Promise<void> => {
    for await (const _event of events) {
      // Read to the end, as a caller would.
    }
  };
  const jobs: Job[] = [
    {
      name: 'Chat Completions, call',
      bare: async () => void (await client.chat.completions.create(chatBody)),
      adapter: async () => void (await chat.call(messages, tools)),
    },
    {
      name: 'Chat Completions, stream',
      bare: async () =>
        drain(
          await client.chat.completions.create({
            ...chatBody,
            stream: true,
            stream_options: { include_usage: true },
          }),
        ),
      adapter: () => drain(chat.stream!(messages, tools)),
    },
    {
      name: 'Responses, call',
      bare: async () => void (await client.responses.create(responsesBody)),
      adapter: async () => void (await responses.call(messages, tools)),
    },
    {
      name: 'Responses, stream',
      bare: async () => drain(await client.responses.create({ ...responsesBody, stream: true })),
      adapter: () => drain(responses.stream!(messages, tools)),
    },
    {
      name: 'Anthropic Messages, call',
      bare: async () => void (await anthropicClient.messages.create(anthropicBody)),
      adapter: async () => void (await anthropic.call(messages, tools)),
    },
    {
      name: 'Anthropic Messages, stream',
      bare: async () => drain(await anthropicClient.messages.create({ ...anthropicBody, stream: true })),
      adapter: () => drain(anthropic.stream!(messages, tools)),
    },
    {
      name: 'Gemini, call',
      bare: async () => void (await genai.models.generateContent(geminiBody)),
      adapter: async () => void (await gemini.call(messages, tools)),
    },
    {
      name: 'Gemini, stream',
      bare: async () => drain(await genai.models.generateContentStream(geminiBody)),
      adapter: () => drain(gemini.stream!(messages, tools)),
    },
    {
      name: 'Gemini, call (client without a timeout)',
      bare: async () => void (await genai.models.generateContent(geminiBodyWithoutTimeout)),
      adapter: async () => void (await gemini.call(messages, tools)),
    },
    {
      name: 'Gemini, stream (client without a timeout)',
      bare: async () => drain(await genai.models.generateContentStream(geminiBodyWithoutTimeout)),
      adapter: () => drain(gemini.stream!(messages, tools)),
    },
  ];
  const rows: string[][] = [];
  try {
    for (const job of jobs) {
      const bare: number[] = [];
      const ours: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        for (let index = 0; index < options.calls; index++) {
          await job.bare();
          await job.adapter();
        }
        for (let index = 0; index < options.calls; index++) {
          let started = performance.now();
          await job.bare();
          bare.push(performance.now() - started);
          started = performance.now();
          await job.adapter();
          ours.push(performance.now() - started);
        }
      }
      options.log(`  ${job.name}: ${formatRatio(median(ours), median(bare))} of the client at the median`);
      rows.push([
        job.name,
        formatNumber(median(bare) * 1000, 0),
        formatNumber(median(ours) * 1000, 0),
        formatRatio(median(ours), median(bare)),
        formatRatio(percentile(ours, 0.99), percentile(bare, 0.99)),
      ]);
    }
  } finally {
    server.close();
  }
  return {
    markdown: [
      '### Adapter overhead per call against the official client',
      '',
      markdownTable(['Job', 'client alone, median µs', 'adapter, median µs', 'median', 'p99'], rows),
    ].join('\n'),
  };
}
