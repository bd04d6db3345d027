// `tool-orchestrator/replay`: record a model's traffic to a cassette file and replay it without a network (Node only).
export { recordModel } from './replay/record-model.js';
export type { RecordModelOptions } from './replay/record-model.js';
export { ReplayAdapter, matchByRequest } from './replay/replay-adapter.js';
export type { ReplayAdapterOptions, ReplayMatch, ReplayMatchContext } from './replay/replay-adapter.js';
export { cassetteVersion, parseCassette } from './replay/cassette.js';
export type {
  Cassette,
  CassetteCall,
  CassetteHeader,
  CassetteRequest,
  RecordedStreamEvent,
} from './replay/cassette.js';
export type { RecordedError } from './replay/recorded-error.js';
export type { RedactionRules } from './replay/redact.js';
export { ReplayMismatchError } from './errors/replay-mismatch-error.js';
export type { ReplayMismatchErrorOptions } from './errors/replay-mismatch-error.js';
