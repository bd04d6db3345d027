// `tool-orchestrator/otel`: OpenTelemetry GenAI spans from trace events. Loads `@opentelemetry/api`.
export { createOtelSink } from './otel/create-otel-sink.js';
export type { OtelSinkOptions, OtelTraceSink, OtelTracer } from './otel/create-otel-sink.js';
