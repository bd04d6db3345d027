// `tool-orchestrator/testing`: a scripted model adapter for tests, and the error it throws.
export { ScriptedAdapter } from './scripted-adapter.js';
export type { RecordedCall, ScriptedAdapterOptions, ScriptedResponse } from './scripted-adapter.js';
export { ScriptExhaustedError } from '../errors/script-exhausted-error.js';
export type { ScriptExhaustedErrorOptions } from '../errors/script-exhausted-error.js';
