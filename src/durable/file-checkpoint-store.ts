// A type-only import: erased from the build, so nothing Node-only loads with this module.
import type * as CheckpointFilesModule from './checkpoint-files.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { emptyHash } from '../shared/hash-text.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { checkRunId, checkSaveArguments } from './check-save-arguments.js';
import { RunLocks } from './run-locks.js';
import type { RunState } from './run-state.js';
import { decodeLines, encodeLines } from './transcript-lines.js';
import { TrackerCache } from './tracker-cache.js';
import { validateRunState } from './validate-run-state.js';

/** Options of {@link FileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /** The folder that holds the checkpoints, one subfolder per run; created when missing. */
  readonly dir: string;
  /**
   * Flush every write to the disk (`fsync`) before a save resolves, so a checkpoint survives a
   * power loss or an OS crash. With `false`, each save is still atomic against a crash of the
   * process (the OS keeps what was written) and is several times faster. @default true
   */
  readonly sync?: boolean;
}

/** The `state.json` of a run's folder. */
interface StateFile {
  readonly format: typeof stateFileFormat;
  /** The transcript file and how much of it belongs to this checkpoint. */
  readonly transcript: {
    readonly file: string;
    readonly count: number;
    readonly bytes: number;
    readonly hash: string;
  };
  /** Every field of the run state but `messages`. */
  readonly state: Omit<RunState, 'messages'>;
}

const stateFileFormat = 'tool-orchestrator.file-checkpoint.v1';
const stateFileName = 'state.json';
const maxFolderNameLength = 200;

type CheckpointFiles = typeof CheckpointFilesModule;
/** Writes of one run folder, queued across every store instance of this process. */
const folderLocks = new RunLocks();
let checkpointFiles: Promise<CheckpointFiles> | undefined;

/** The Node file operations, loaded on first use so the root entry stays free of `node:*` imports. */
function loadCheckpointFiles(): Promise<CheckpointFiles> {
  checkpointFiles ??= import('./checkpoint-files.js');
  return checkpointFiles;
}

/**
 * Keeps checkpoints in files, one folder per run under `dir` (Node, Bun and Deno's Node
 * compatibility). A save is atomic: a crash at any point (`SIGKILL`, and with `sync` a power
 * loss) leaves the previous checkpoint readable, never a torn one. A save writes only what changed:
 *
 * - `transcript-<n>.jsonl`: the messages, one checksummed line each, only ever appended to. A
 *   save appends the new messages; when the transcript was replaced rather than extended, it
 *   writes a new file instead.
 * - `state.json`: every other field, with the transcript file and how many of its bytes belong to
 *   this checkpoint; replaced atomically (a temporary file, fsync, rename, fsync of the folder).
 *
 * Bytes after the recorded length (a write cut short by a crash) are ignored and overwritten by the
 * next save. The saves of a run are queued within the process (across store instances); one
 * process at a time should write a given run. For runs that several processes write, use
 * `PostgresCheckpointStore`.
 *
 * @example
 * const store = new FileCheckpointStore({ dir: './checkpoints' });
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly dir: string;
  readonly sync: boolean;
  readonly #trackers = new TrackerCache();

  /** @throws {InvalidArgumentError} when `dir` is not a non-empty string or `sync` not a boolean. */
  constructor(options: FileCheckpointStoreOptions) {
    if (typeof options?.dir !== 'string' || options.dir === '') {
      throw new InvalidArgumentError({
        argument: 'dir',
        value: options?.dir,
        message:
          'must be the path of the folder for the checkpoints, e.g. new FileCheckpointStore({ dir: "./checkpoints" }).',
      });
    }
    if (options.sync !== undefined && typeof options.sync !== 'boolean') {
      throw new InvalidArgumentError({
        argument: 'sync',
        value: options.sync,
        message: 'must be true or false.',
      });
    }
    this.dir = options.dir;
    this.sync = options.sync ?? true;
  }

  /** Stores `state` unless a state with a higher or equal `step` is stored already. */
  async save(runId: string, state: RunState): Promise<void> {
    checkSaveArguments(runId, state);
    const folder = runFolderName(runId);
    await this.#inLock(folder, (files, directory) => this.#save(files, directory, runId, state));
  }

  /** The newest state of `runId`; `undefined` when none is stored. */
  async load(runId: string): Promise<RunState | undefined> {
    checkRunId(runId);
    const folder = runFolderName(runId);
    return this.#inLock(folder, (files, directory) => this.#load(files, directory, runId));
  }

  /** Removes the run's folder. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    const folder = runFolderName(runId);
    await this.#inLock(folder, async (files) => {
      this.#trackers.forget(runId);
      await files.removeDirectory(this.dir, folder);
    });
  }

  /**
   * Runs `task` on the run's folder after every other task of this process on it: the lock is
   * keyed by the folder's absolute path and shared by every store instance of the process.
   */
  async #inLock<Result>(
    folder: string,
    task: (files: CheckpointFiles, directory: string) => Promise<Result>,
  ): Promise<Result> {
    const files = await loadCheckpointFiles();
    const directory = files.resolve(this.dir, folder);
    return folderLocks.run(directory, () => task(files, directory));
  }

  async #save(files: CheckpointFiles, directory: string, runId: string, state: RunState): Promise<void> {
    const current = await this.#readStateFile(files, directory, runId);
    if (current !== undefined && current.state.step >= state.step) return;
    const tracker = this.#trackers.get(runId);
    const prepared = tracker.prepare(state.messages);
    const stored = current?.transcript ?? { count: 0, hash: emptyHash };
    const plan = prepared.planWrite(stored);
    let transcript: StateFile['transcript'];
    if (current !== undefined && plan.type === 'append') {
      const lines = encodeLines(prepared, plan.from);
      const { file, bytes } = current.transcript;
      const written =
        lines === '' ? 0 : await files.writeAt(files.join(directory, file), bytes, lines, this.sync);
      transcript = {
        file,
        count: prepared.messages.length,
        bytes: bytes + written,
        hash: prepared.stored.hash,
      };
    } else {
      if (current === undefined) await files.ensureDirectory(directory, this.dir, this.sync);
      const file = `transcript-${current === undefined ? 1 : generationOf(current.transcript.file) + 1}.jsonl`;
      const bytes = await files.writeAt(files.join(directory, file), 0, encodeLines(prepared, 0), this.sync);
      transcript = { file, count: prepared.messages.length, bytes, hash: prepared.stored.hash };
    }
    const { messages: _messages, ...fields } = state;
    const stateFile: StateFile = { format: stateFileFormat, transcript, state: fields };
    await files.replaceFile(directory, stateFileName, JSON.stringify(stateFile), this.sync);
    if (current !== undefined && current.transcript.file !== transcript.file) {
      await files.removeFile(files.join(directory, current.transcript.file));
    }
    this.#trackers.remember(runId, prepared.messages, prepared.hashes, state.step, state.result !== null);
  }

  async #load(files: CheckpointFiles, directory: string, runId: string): Promise<RunState | undefined> {
    // Another process may replace the transcript file between the two reads: read again then.
    for (let attempt = 1; ; attempt++) {
      const current = await this.#readStateFile(files, directory, runId);
      if (current === undefined) return undefined;
      const { file, count, bytes, hash } = current.transcript;
      const prefix = await files.readPrefix(files.join(directory, file), bytes);
      if (prefix === undefined && attempt < 5) continue;
      if (prefix === undefined || prefix.bytesRead < bytes) {
        throw new InvalidRunStateError({
          path: 'messages',
          value: prefix?.bytesRead ?? 'no file',
          runId,
          message: `${file} holds fewer than the ${bytes} bytes ${stateFileName} counts: the checkpoint is damaged. Delete the run's checkpoint, or restore the folder from a backup.`,
        });
      }
      const { messages, hashes } = decodeLines(prefix.text, count, {
        runId,
        file: files.join(directory, file),
      });
      if ((hashes.at(-1) ?? emptyHash) !== hash) {
        throw new InvalidRunStateError({
          path: 'messages',
          value: hashes.at(-1) ?? emptyHash,
          runId,
          message: `the transcript does not match the hash ${stateFileName} records (${hash}): the checkpoint is damaged.`,
        });
      }
      const state = validateRunState({ ...current.state, messages });
      this.#trackers.remember(runId, messages, hashes, state.step, state.result !== null);
      return state;
    }
  }

  async #readStateFile(
    files: CheckpointFiles,
    directory: string,
    runId: string,
  ): Promise<StateFile | undefined> {
    const path = files.join(directory, stateFileName);
    const text = await files.readTextFile(path);
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new InvalidRunStateError({
        path: '',
        value: text.slice(0, 80),
        runId,
        message: `${path} is not JSON: the checkpoint is damaged.`,
        cause: error,
      });
    }
    const stateFile = parsed as Partial<StateFile> | null;
    if (stateFile?.format !== stateFileFormat || typeof stateFile.transcript !== 'object') {
      throw new InvalidRunStateError({
        path: '',
        value: (stateFile as { format?: unknown } | null)?.format,
        runId,
        message: `${path} is not a checkpoint of this format ("${stateFileFormat}"): it was written by another version of tool-orchestrator, or by something else.`,
      });
    }
    return stateFile as StateFile;
  }
}

/**
 * The folder name of a run: the id itself when it is made of letters, digits, `_` and `-`, else
 * every other character percent-encoded (UTF-8), so any id maps to one safe name.
 *
 * @throws {InvalidArgumentError} when the name would be longer than a file system allows.
 */
export function runFolderName(runId: string): string {
  const name = /^[A-Za-z0-9_-]+$/.test(runId)
    ? runId
    : [...new TextEncoder().encode(runId)]
        .map((byte) =>
          (byte >= 0x30 && byte <= 0x39) ||
          (byte >= 0x41 && byte <= 0x5a) ||
          (byte >= 0x61 && byte <= 0x7a) ||
          byte === 0x5f ||
          byte === 0x2d
            ? String.fromCharCode(byte)
            : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
        )
        .join('');
  if (name.length > maxFolderNameLength) {
    throw new InvalidArgumentError({
      argument: 'runId',
      value: runId,
      message: `is too long for FileCheckpointStore: its folder name would have ${name.length} characters, more than ${maxFolderNameLength}. Use a shorter run id.`,
    });
  }
  return name;
}

function generationOf(file: string): number {
  const generation = Number(/^transcript-(\d+)\.jsonl$/.exec(file)?.[1]);
  return Number.isSafeInteger(generation) ? generation : 0;
}
