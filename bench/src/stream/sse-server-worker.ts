/**
 * A scripted Chat Completions server on 127.0.0.1, run in a worker thread so its event loop is not the
 * client's. It records `process.hrtime.bigint()` (CLOCK_MONOTONIC, the same clock in every thread) right
 * before each streamed delta chunk is written, into a SharedArrayBuffer the client reads.
 */
import { createServer } from 'node:http';
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
    let index = 0;
    const next = (): void => {
      if (response.destroyed) return;
      if (index === longChunks.length) {
        response.end(longTail);
        return;
      }
      sendTimes[index] = process.hrtime.bigint();
      response.write(longChunks[index]!);
      index++;
      setTimeout(next, data.chunkIntervalMs);
    };
    next();
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
