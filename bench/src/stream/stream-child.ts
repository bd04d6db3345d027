/**
 * Streaming and wire benchmarks in a fresh process, against the scripted server in a worker thread.
 * `latency`: time from a delta chunk leaving the server to our `content_delta` event (or, for the raw
 * `openai` client, to the chunk coming out of its stream). `run`: a whole 20-turn run over local HTTP.
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import OpenAI from 'openai';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { OpenAIAdapter, OpenAIResponsesAdapter } from 'tool-orchestrator/openai';
import { z } from 'zod';
import type { OpenAIAdapterOptions, OpenAIResponsesAdapterOptions } from 'tool-orchestrator/openai';
import { mean, median, percentile } from '../measure.js';
import { finalText } from './stream-script.js';
import type { ServerWorkerData } from './stream-script.js';

export interface StreamChildOptions {
  readonly mode: 'latency' | 'run';
  readonly library: 'ours' | 'openai client' | 'openai runTools';
  /** The wire of the latency jobs: Chat Completions, or the Responses API. @default 'chat' */
  readonly wire?: 'chat' | 'responses';
  readonly contentTokens: number;
  readonly argumentFragments: number;
  readonly chunkIntervalMs: number;
  readonly warmupAnswers: number;
  readonly answers: number;
  readonly runToolTurns: number;
  readonly warmupMs: number;
  readonly timedMs: number;
  readonly minTimedRuns: number;
}

export interface StreamChildResult {
  readonly mode: StreamChildOptions['mode'];
  readonly library: string;
  readonly wire?: StreamChildOptions['wire'];
  readonly ok: boolean;
  readonly failure?: string;
  /** Microseconds, over every content delta of the measured answers. */
  readonly contentLatencyMedian?: number;
  readonly contentLatencyP99?: number;
  readonly toolCallLatencyMedian?: number;
  readonly deltas?: number;
  readonly microsecondsPerRun?: number;
  readonly microsecondsPerTurn?: number;
  readonly timedRuns?: number;
}

const addParameters = z.object({ a: z.number(), b: z.number() });

async function startServer(
  options: StreamChildOptions,
  sendTimes: SharedArrayBuffer,
): Promise<{ baseURL: string; worker: Worker }> {
  const workerData: ServerWorkerData = {
    sendTimes,
    contentTokens: options.contentTokens,
    argumentFragments: options.argumentFragments,
    runToolTurns: options.runToolTurns,
    chunkIntervalMs: options.chunkIntervalMs,
  };
  const worker = new Worker(fileURLToPath(new URL('./sse-server-worker.mjs', import.meta.url)), {
    workerData,
  });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (message: { port: number }) => resolve(message.port));
    worker.once('error', reject);
  });
  return { baseURL: `http://127.0.0.1:${port}/v1`, worker };
}

async function measure(options: StreamChildOptions): Promise<StreamChildResult> {
  const deltaCount = options.contentTokens + options.argumentFragments;
  const sendBuffer = new SharedArrayBuffer(8 * deltaCount);
  const sendTimes = new BigInt64Array(sendBuffer);
  const receiveTimes = new BigInt64Array(deltaCount);
  const { baseURL, worker } = await startServer(options, sendBuffer);
  const client = new OpenAI({ apiKey: 'bench', baseURL, maxRetries: 0 });
  // bench/ and the root each install openai 6.49; the classes differ only by identity.
  const adapterClient = client as unknown as NonNullable<OpenAIAdapterOptions['client']>;
  let executions = 0;
  const wire = options.wire ?? 'chat';
  const base = { mode: options.mode, library: options.library, wire };
  try {
    if (options.mode === 'latency') {
      let received = 0;
      let answer: () => Promise<{ text: string }>;
      if (options.library === 'ours') {
        const add = defineTool({
          name: 'add',
          description: 'Add two numbers.',
          parameters: addParameters,
          execute: ({ a, b }) => {
            executions++;
            return a + b;
          },
        });
        const adapter =
          wire === 'chat'
            ? new OpenAIAdapter({ model: 'bench', client: adapterClient })
            : new OpenAIResponsesAdapter({
                model: 'bench',
                client: client as unknown as NonNullable<OpenAIResponsesAdapterOptions['client']>,
              });
        const orchestrator = new ToolOrchestrator(adapter, { add }, { stream: true, maxTurns: 3 });
        // The final answer's one delta (turn 2) is counted but not timed: only the long answer is.
        const record = (): void => {
          if (received < deltaCount) receiveTimes[received] = process.hrtime.bigint();
          received++;
        };
        orchestrator.on('content_delta', record);
        orchestrator.on('tool_call_delta', (event) => {
          // The Responses wire announces a call (its name) in an event of its own, before the argument deltas.
          if (event.data.argumentsDelta !== '') record();
        });
        answer = async () => ({
          text: (await orchestrator.run([{ role: 'user', content: 'Stream the benchmark answer.' }])).content,
        });
      } else if (wire === 'responses') {
        answer = async () => {
          const stream = await client.responses.create({
            model: 'bench',
            input: [{ role: 'user', content: 'Stream the benchmark answer.' }],
            stream: true,
          });
          for await (const event of stream) {
            if (
              event.type === 'response.output_text.delta' ||
              event.type === 'response.function_call_arguments.delta'
            ) {
              receiveTimes[received++] = process.hrtime.bigint();
            }
          }
          executions++;
          return { text: finalText };
        };
      } else {
        answer = async () => {
          const stream = await client.chat.completions.create({
            model: 'bench',
            messages: [{ role: 'user', content: 'Stream the benchmark answer.' }],
            stream: true,
            stream_options: { include_usage: true },
          });
          for await (const chunk of stream) {
            const delta = chunk.choices[0]?.delta;
            if ((delta?.content ?? '') !== '' || (delta?.tool_calls?.length ?? 0) > 0) {
              receiveTimes[received++] = process.hrtime.bigint();
            }
          }
          executions++;
          return { text: finalText };
        };
      }
      const content: number[] = [];
      const toolCalls: number[] = [];
      for (let index = 0; index < options.warmupAnswers + options.answers; index++) {
        received = 0;
        const executionsBefore = executions;
        const { text } = await answer();
        if (text !== finalText) throw new Error(`final text was ${JSON.stringify(text.slice(0, 80))}`);
        if (executions - executionsBefore !== 1)
          throw new Error(`the tool ran ${executions - executionsBefore} times, expected 1`);
        const expected = options.library === 'ours' ? deltaCount + 1 : deltaCount;
        if (received !== expected) throw new Error(`saw ${received} deltas, the server sent ${expected}`);
        if (index < options.warmupAnswers) continue;
        for (let delta = 0; delta < deltaCount; delta++) {
          const latency = Number(receiveTimes[delta]! - sendTimes[delta]!) / 1000;
          (delta < options.contentTokens ? content : toolCalls).push(latency);
        }
      }
      return {
        ...base,
        ok: true,
        contentLatencyMedian: median(content),
        contentLatencyP99: percentile(content, 0.99),
        toolCallLatencyMedian: median(toolCalls),
        deltas: content.length + toolCalls.length,
      };
    }
    let run: () => Promise<string>;
    const turns = options.runToolTurns + 1;
    if (options.library === 'ours') {
      const add = defineTool({
        name: 'add',
        description: 'Add two numbers.',
        parameters: addParameters,
        execute: ({ a, b }) => {
          executions++;
          return a + b;
        },
      });
      const orchestrator = new ToolOrchestrator(
        new OpenAIAdapter({ model: 'bench', client: adapterClient }),
        { add },
        { maxTurns: turns },
      );
      run = async () =>
        (await orchestrator.run([{ role: 'user', content: 'Run the benchmark script.' }])).content;
    } else {
      const tools = [
        {
          type: 'function' as const,
          function: {
            name: 'add',
            description: 'Add two numbers.',
            parameters: z.toJSONSchema(addParameters) as Record<string, unknown>,
            parse: (raw: string) => addParameters.parse(JSON.parse(raw)),
            function: ({ a, b }: { a: number; b: number }) => {
              executions++;
              return a + b;
            },
          },
        },
      ];
      run = async () =>
        (await client.chat.completions
          .runTools(
            { model: 'bench', messages: [{ role: 'user', content: 'Run the benchmark script.' }], tools },
            { maxChatCompletions: turns },
          )
          .finalContent()) ?? '';
    }
    const verified = async (): Promise<void> => {
      const before = executions;
      const text = await run();
      if (text !== finalText) throw new Error(`final text was ${JSON.stringify(text.slice(0, 80))}`);
      if (executions - before !== options.runToolTurns) {
        throw new Error(`executed ${executions - before} tool calls, expected ${options.runToolTurns}`);
      }
    };
    await verified();
    const warmupStart = performance.now();
    while (performance.now() - warmupStart < options.warmupMs) await verified();
    const durations: number[] = [];
    const timedStart = performance.now();
    while (durations.length < options.minTimedRuns || performance.now() - timedStart < options.timedMs) {
      const started = performance.now();
      await verified();
      durations.push(performance.now() - started);
    }
    const perRun = mean(durations) * 1000;
    return {
      ...base,
      ok: true,
      microsecondsPerRun: perRun,
      microsecondsPerTurn: perRun / turns,
      timedRuns: durations.length,
    };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message };
  } finally {
    worker.postMessage('close');
    await new Promise((resolve) => worker.once('exit', resolve));
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as StreamChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
