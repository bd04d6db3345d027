/**
 * The root entry `tool-orchestrator` in Node, Bun and Deno (the package's `node` export
 * condition): the runtime-neutral exports and the `FileCheckpointStore` that writes files.
 */
export * from './root-exports.js';
export { FileCheckpointStore } from './durable/file-checkpoint-store.js';
