// `tool-orchestrator/trace`: JSONL trace files and the self-contained HTML viewer (Node only).
export { createJsonlSink } from './trace/create-jsonl-sink.js';
export type { JsonlSinkOptions, JsonlTraceSink } from './trace/create-jsonl-sink.js';
export { readJsonl } from './trace/read-jsonl.js';
export { TraceFileError } from './trace/errors/trace-file-error.js';
export type { TraceFileErrorCode, TraceFileErrorOptions } from './trace/errors/trace-file-error.js';
export { renderTraceHtml } from './trace/render-trace-html.js';
export type { RenderTraceHtmlOptions } from './trace/render-trace-html.js';
export type { ModelPrices } from './trace/viewer/trace-model.js';
