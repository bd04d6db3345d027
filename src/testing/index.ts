export { ScriptedAdapter } from './scripted-adapter.js';
export type { RecordedCall, ScriptedAdapterOptions, ScriptedResponse } from './scripted-adapter.js';
export { ScriptExhaustedError } from '../errors/script-exhausted-error.js';
