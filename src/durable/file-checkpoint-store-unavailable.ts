// A type-only import: the build for browsers and edge runtimes loads nothing of the real store.
import type { FileCheckpointStore as NodeFileCheckpointStore } from './file-checkpoint-store.js';
import { UnsupportedRuntimeError } from '../errors/unsupported-runtime-error.js';

/**
 * `FileCheckpointStore` in the build of the root entry for runtimes without Node's file system
 * (browsers, edge and worker runtimes): the same name and type as the real store, so an app
 * type-checks the same everywhere, but constructing it throws.
 *
 * @throws {UnsupportedRuntimeError} always, saying what to use instead.
 */
export const FileCheckpointStore = class FileCheckpointStore {
  constructor() {
    throw new UnsupportedRuntimeError({
      feature: 'FileCheckpointStore',
      message:
        "FileCheckpointStore needs Node's file system, and this is the build of tool-orchestrator for browsers, " +
        'edge and worker runtimes (your bundler did not match the package\'s "node" export condition). ' +
        'Use MemoryCheckpointStore, or a CheckpointStore of your own over the storage this runtime has ' +
        '(IndexedDB, a Durable Object, a KV store). In Node, Bun or Deno, bundle for Node (esbuild --platform=node, ' +
        "or the 'node' condition) to get the real store.",
    });
  }
} as unknown as typeof NodeFileCheckpointStore;
/** The type of the real `FileCheckpointStore`. */
export type FileCheckpointStore = NodeFileCheckpointStore;
