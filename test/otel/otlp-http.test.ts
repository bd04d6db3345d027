import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { createOtelSink } from '../../src/otel.js';
import { runTracedScenario } from '../support/traced-scenario.js';
import { expectScenarioSpans, fromOtlpRequest } from './span-tree.js';
import type { OtlpTraceRequest, SpanRecord } from './span-tree.js';

/** A minimal OTLP/HTTP receiver on 127.0.0.1: keeps every `POST /v1/traces` body (JSON encoding). */
async function startReceiver() {
  const requests: { path: string; contentType: string | undefined; body: OtlpTraceRequest }[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      requests.push({
        path: request.url ?? '',
        contentType: request.headers['content-type'],
        body: JSON.parse(text) as OtlpTraceRequest,
      });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('createOtelSink over OTLP/HTTP', () => {
  it('exports the span tree a collector receives: names, parents, kinds, attributes, errors', async () => {
    const receiver = await startReceiver();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new OTLPTraceExporter({ url: receiver.url, timeoutMillis: 5000 })),
      ],
    });
    try {
      const sink = createOtelSink({
        tracer: provider.getTracer('tool-orchestrator-test'),
        provider: 'scripted',
        model: 'main-model',
      });
      const events = await runTracedScenario(sink);
      await provider.forceFlush();
      expect(receiver.requests.length).toBeGreaterThan(0);
      expect(receiver.requests.every((request) => request.path === '/v1/traces')).toBe(true);
      expect(receiver.requests[0]!.contentType).toBe('application/json');
      const spans: SpanRecord[] = receiver.requests.flatMap((request) => fromOtlpRequest(request.body));
      expectScenarioSpans(spans, events);
    } finally {
      await provider.shutdown();
      await receiver.close();
    }
  });
});
