/**
 * The root entry `tool-orchestrator` in browsers, edge and worker runtimes (every export
 * condition but `node`): the same names and types as in Node, but `FileCheckpointStore`, which
 * needs Node's file system, throws `UnsupportedRuntimeError` when constructed.
 */
export * from './root-exports.js';
export { FileCheckpointStore } from './durable/file-checkpoint-store-unavailable.js';
