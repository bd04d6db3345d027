/**
 * A scripted Chat Completions and Responses server on 127.0.0.1, run in a worker thread so its event loop is not the
 * client's. It records `process.hrtime.bigint()` (CLOCK_MONOTONIC, the same clock in every thread) right
 * before each streamed delta chunk is written, into a SharedArrayBuffer the client reads.
 */
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { argumentsText, finalText } from './stream-script.js';
import type { ServerWorkerData } from './stream-script.js';

const data = workerData as ServerWorkerData;
const sendTimes = new BigInt64Array(data.sendTimes);

function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  usage: unknown = undefined,
): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl_bench',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'bench',
    choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    ...(usage === undefined ? {} : { usage }),
  })}\n\n`;
}

const usage = { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 };

/** The long answer: `contentTokens` content chunks, then one tool call in `argumentFragments` pieces. */
function longAnswer(): string[] {
  const chunks: string[] = [chunk({ role: 'assistant', content: 'token0 ' })];
  for (let index = 1; index < data.contentTokens; index++) chunks.push(chunk({ content: `token${index} ` }));
  const size = Math.ceil(argumentsText.length / data.argumentFragments);
  for (let index = 0; index < data.argumentFragments; index++) {
    const piece = argumentsText.slice(index * size, (index + 1) * size);
    chunks.push(
      chunk({
        tool_calls: [
          index === 0
            ? { index: 0, id: 'call_stream', type: 'function', function: { name: 'add', arguments: piece } }
            : { index: 0, function: { arguments: piece } },
        ],
      }),
    );
  }
  return chunks;
}

const longChunks = longAnswer();
const longTail = `${chunk({}, 'tool_calls')}${chunk({}, null, usage)}data: [DONE]\n\n`;
const finalStream = `${chunk({ role: 'assistant', content: finalText })}${chunk({}, 'stop')}${chunk({}, null, usage)}data: [DONE]\n\n`;

function completion(message: Record<string, unknown>, finishReason: string): string {
  return JSON.stringify({
    id: 'chatcmpl_bench',
    object: 'chat.completion',
    created: 0,
    model: 'bench',
    choices: [
      { index: 0, message: { refusal: null, ...message }, finish_reason: finishReason, logprobs: null },
    ],
    usage,
  });
}

/** A Responses API event, as OpenAI streams it. */
function event(body: Record<string, unknown>): string {
  return `event: ${String(body['type'])}\ndata: ${JSON.stringify(body)}\n\n`;
}

const responsesUsage = {
  input_tokens: 10,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 10,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 20,
};

function responseBody(output: unknown[], status: string): Record<string, unknown> {
  return { id: 'resp_bench', object: 'response', status, model: 'bench', output, usage: responsesUsage };
}

/** The long answer on the Responses wire: the same deltas, as `output_text` and `function_call_arguments` events. */
function longResponsesAnswer(): { readonly head: string; readonly deltas: string[]; readonly tail: string } {
  const message = { id: 'msg_bench', type: 'message', role: 'assistant', status: 'in_progress', content: [] };
  const call = {
    id: 'fc_bench',
    type: 'function_call',
    status: 'in_progress',
    call_id: 'call_stream',
    name: 'add',
  };
  const text = Array.from({ length: data.contentTokens }, (_, index) => `token${index} `);
  const size = Math.ceil(argumentsText.length / data.argumentFragments);
  const pieces = Array.from({ length: data.argumentFragments }, (_, index) =>
    argumentsText.slice(index * size, (index + 1) * size),
  );
  const doneMessage = {
    ...message,
    status: 'completed',
    content: [{ type: 'output_text', text: text.join(''), annotations: [] }],
  };
  const doneCall = { ...call, status: 'completed', arguments: argumentsText };
  const head =
    event({ type: 'response.created', response: responseBody([], 'in_progress') }) +
    event({ type: 'response.output_item.added', output_index: 0, item: message });
  const deltas = text.map((delta) =>
    event({
      type: 'response.output_text.delta',
      item_id: 'msg_bench',
      output_index: 0,
      content_index: 0,
      delta,
    }),
  );
  // The call's `added` event rides with its first argument delta, as the chat wire's first tool chunk carries the name.
  pieces.forEach((delta, index) => {
    const added =
      index === 0
        ? event({ type: 'response.output_item.done', output_index: 0, item: doneMessage }) +
          event({ type: 'response.output_item.added', output_index: 1, item: { ...call, arguments: '' } })
        : '';
    deltas.push(
      added +
        event({
          type: 'response.function_call_arguments.delta',
          item_id: 'fc_bench',
          output_index: 1,
          delta,
        }),
    );
  });
  const tail =
    event({ type: 'response.output_item.done', output_index: 1, item: doneCall }) +
    event({ type: 'response.completed', response: responseBody([doneMessage, doneCall], 'completed') });
  return { head, deltas, tail };
}

const longResponses = longResponsesAnswer();
const finalMessage = {
  id: 'msg_final',
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text: finalText, annotations: [] }],
};
const finalResponsesStream =
  event({ type: 'response.created', response: responseBody([], 'in_progress') }) +
  event({ type: 'response.output_item.added', output_index: 0, item: { ...finalMessage, content: [] } }) +
  event({
    type: 'response.output_text.delta',
    item_id: 'msg_final',
    output_index: 0,
    content_index: 0,
    delta: finalText,
  }) +
  event({ type: 'response.output_item.done', output_index: 0, item: finalMessage }) +
  event({ type: 'response.completed', response: responseBody([finalMessage], 'completed') });

/** Writes `head`, then each delta `chunkIntervalMs` apart with its send time recorded, then `tail`. */
function streamTimed(response: ServerResponse, head: string, deltas: readonly string[], tail: string): void {
  if (head !== '') response.write(head);
  let index = 0;
  const next = (): void => {
    if (response.destroyed) return;
    if (index === deltas.length) {
      response.end(tail);
      return;
    }
    sendTimes[index] = process.hrtime.bigint();
    response.write(deltas[index]!);
    index++;
    setTimeout(next, data.chunkIntervalMs);
  };
  next();
}

const runBodies: string[] = [];
for (let turn = 0; turn < data.runToolTurns; turn++) {
  runBodies.push(
    completion(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: `call_${turn}`,
            type: 'function',
            function: { name: 'add', arguments: `{"a":${turn},"b":1}` },
          },
        ],
      },
      'tool_calls',
    ),
  );
}
runBodies.push(completion({ role: 'assistant', content: finalText }, 'stop'));

const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (piece: string) => (body += piece));
  request.on('end', () => {
    if (request.url === '/v1/responses') {
      const input = (JSON.parse(body) as { input: { type?: string }[] }).input;
      const answered = input.some((item) => item.type === 'function_call_output');
      response.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'req_responses' });
      if (answered) response.end(finalResponsesStream);
      else streamTimed(response, longResponses.head, longResponses.deltas, longResponses.tail);
      return;
    }
    const parsed = JSON.parse(body) as { stream?: boolean; messages: { role: string }[] };
    const turn = parsed.messages.filter((message) => message.role === 'assistant').length;
    if (parsed.stream !== true) {
      response.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_${turn}` });
      response.end(runBodies[Math.min(turn, runBodies.length - 1)]);
      return;
    }
    response.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      'x-request-id': `req_${turn}`,
    });
    if (turn > 0) {
      response.end(finalStream);
      return;
    }
    streamTimed(response, '', longChunks, longTail);
  });
});

server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  parentPort?.postMessage({ port: (server.address() as AddressInfo).port });
});
parentPort?.on('message', (message: unknown) => {
  if (message === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
