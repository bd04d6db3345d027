// A type-only import: erased from the build, so nothing Node-only loads with this module.
import type * as CheckpointFilesModule from './checkpoint-files.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { ChatMessage } from '../model/messages.js';
import { emptyHash, hashText } from '../shared/hash-text.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { checkRunId, checkSaveArguments } from './check-save-arguments.js';
import { RunLocks } from './run-locks.js';
import type { RunState } from './run-state.js';
import { TrackerCache } from './tracker-cache.js';
import type { StoredTranscript } from './transcript-tracker.js';
import { validateRunState } from './validate-run-state.js';

/** Options of {@link FileCheckpointStore}. */
export interface FileCheckpointStoreOptions {
  /** The folder that holds the checkpoints, one subfolder per run; created when missing. */
  readonly dir: string;
  /**
   * Flush every save to the disk (`fdatasync`) before it resolves, so a checkpoint survives a
   * power loss or an OS crash. With `false`, a save survives a crash of the process (the OS keeps
   * what was written) but not of the machine, and costs a tenth as much. @default true
   */
  readonly sync?: boolean;
}

type CheckpointFiles = typeof CheckpointFilesModule;
type FileHandle = CheckpointFilesModule.FileHandle;

/** One line of the log: a checkpoint, as the messages it adds to the one before and its other fields. */
interface LogRecord {
  readonly step: number;
  /** How many messages of the previous record's transcript this one keeps; its `messages` follow them. */
  readonly from: number;
  readonly messages: readonly ChatMessage[];
  readonly state: Omit<RunState, 'messages'>;
}

/** What this store instance knows of a run's log, as of its last write or read of it. */
interface OpenLog {
  /** Opened at the first write after a read. */
  handle: FileHandle | undefined;
  /** The file's inode: another process that compacted the log replaced it. */
  ino: number;
  /** Where the next line goes: the end of the last good line. */
  bytes: number;
  /** The file's size as last seen (more than `bytes` after a torn write). */
  fileBytes: number;
  step: number;
  transcript: StoredTranscript;
  /** About the size of the JSON of the messages: with the last state's fields, what a compacted log holds. */
  messageBytes: number;
}

const logFileName = 'checkpoint.log';
const maxFolderNameLength = 200;
/** How many logs an instance keeps open; the least recently written is closed past it. */
const maxOpenLogs = 64;
/** A log is compacted once it is this many times the size of its compacted form, and past `compactFloor`. */
const compactRatio = 4;
const compactFloor = 1 << 20;

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
 * compatibility), each holding one append-only log, `checkpoint.log`. A save appends one line: the
 * messages added since the last checkpoint and the run's other fields, with a CRC-32 of the line,
 * then flushes it (`fdatasync`, one per save, on a file kept open). A crash at any point (`SIGKILL`,
 * and with `sync` a power loss) leaves the previous checkpoint readable, never a torn one: a last
 * line cut short or failing its checksum is ignored on load and written over by the next save.
 *
 * When the transcript was replaced rather than extended, the line says how many of the stored
 * messages it keeps. The log is rewritten whole (a temporary file, fsync, rename) once it is four
 * times the size of what it holds, and when the run ends, so it stays proportional to the run.
 *
 * The saves of a run are queued within the process (across store instances). One process at a
 * time should write a given run: another instance notices that the log changed since it last
 * wrote it and reads it again, but two processes saving the same run at once may lose a save. For
 * runs that several processes write, use `PostgresCheckpointStore`. Call `close()` to close the
 * files of runs that have not ended (a paused run's, say).
 *
 * @example
 * const store = new FileCheckpointStore({ dir: './checkpoints' });
 */
export class FileCheckpointStore implements CheckpointStore {
  readonly dir: string;
  readonly sync: boolean;
  readonly #trackers = new TrackerCache();
  /** Open logs by folder path, least recently written first. */
  readonly #logs = new Map<string, OpenLog>();

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
    return this.#inLock(folder, async (files, directory) => {
      const read = await this.#read(files, directory, runId);
      return read?.state;
    });
  }

  /** Removes the run's folder. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    const folder = runFolderName(runId);
    await this.#inLock(folder, async (files, directory) => {
      this.#trackers.forget(runId);
      await this.#close(directory);
      await files.removeDirectory(this.dir, folder);
    });
  }

  /** Closes the files this instance keeps open (runs that have not ended). Saves reopen them. */
  async close(): Promise<void> {
    await Promise.all(
      [...this.#logs.keys()].map((directory) => folderLocks.run(directory, () => this.#close(directory))),
    );
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
    const path = files.join(directory, logFileName);
    let log = this.#logs.get(directory);
    const identity = await files.fileIdentity(path);
    if (log !== undefined && (identity?.ino !== log.ino || identity.size !== log.fileBytes)) {
      // Another process wrote (or deleted) the run since this instance did: read it again.
      await this.#close(directory);
      log = undefined;
    }
    if (log === undefined && identity !== undefined) {
      await this.#read(files, directory, runId);
      log = this.#logs.get(directory);
    }
    if (log !== undefined && log.step >= state.step) return;
    const prepared = this.#trackers.get(runId).prepare(state.messages);
    const plan = prepared.planWrite(log?.transcript ?? { count: 0, hash: emptyHash });
    const fieldsJson = JSON.stringify(fieldsOf(state));
    const ended = state.result !== null;
    let messageBytes = log === undefined || plan.type === 'rewrite' ? 0 : log.messageBytes;
    const newJson: string[] = [];
    for (let index = plan.from; index < prepared.messages.length; index++) {
      const json = prepared.json(index);
      newJson.push(json);
      messageBytes += json.length;
    }
    if (plan.type === 'rewrite') {
      for (let index = 0; index < plan.from; index++) messageBytes += prepared.json(index).length;
    }
    const line = files.encodeLogLine(recordJson(state.step, plan.from, newJson, fieldsJson));
    const compactedBytes = messageBytes + fieldsJson.length;
    const written = (log?.bytes ?? 0) + line.length;
    const compact =
      log !== undefined && (ended || (written > compactFloor && written > compactRatio * compactedBytes));
    if (log === undefined) {
      log = await this.#create(files, directory, path, line);
    } else if (compact) {
      const all = prepared.messages.map((_, index) => prepared.json(index));
      const whole = files.encodeLogLine(recordJson(state.step, 0, all, fieldsJson));
      await files.replaceFile(directory, logFileName, whole, this.sync);
      await this.#close(directory);
      const reopened = await files.openForWrites(path, false);
      log = this.#remember(directory, { handle: reopened.handle, ino: reopened.ino, bytes: whole.length });
    } else {
      log.handle ??= (await files.openForWrites(path, false)).handle;
      const cutTo = log.fileBytes > log.bytes ? log.bytes : undefined;
      await files.writeBytesAt(log.handle, log.bytes, line, this.sync, cutTo);
      log.bytes += line.length;
      // Most recently written last, for the least recently written to be closed first.
      this.#logs.delete(directory);
      this.#logs.set(directory, log);
    }
    log.fileBytes = log.bytes;
    log.step = state.step;
    log.transcript = prepared.stored;
    log.messageBytes = messageBytes;
    this.#trackers.remember(runId, prepared.messages, prepared.hashes, state.step, ended);
    // An ended run is written no more: close its file (its log is compacted already). A paused run
    // may wait days for a person: its file is closed too, and the next save opens it again.
    if (ended) await this.#close(directory);
    else if (state.stopReason === 'awaiting_approval') await this.#release(log);
  }

  /** Creates the run's folder and log with its first line, every entry flushed with `sync`. */
  async #create(files: CheckpointFiles, directory: string, path: string, line: Uint8Array): Promise<OpenLog> {
    await files.ensureDirectory(directory, this.dir, this.sync);
    const { handle, ino } = await files.openForWrites(path, true);
    try {
      await files.writeBytesAt(handle, 0, line, this.sync);
      if (this.sync) await files.syncDirectory(directory);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return this.#remember(directory, { handle, ino, bytes: line.length });
  }

  #remember(
    directory: string,
    opened: { readonly handle: FileHandle | undefined; readonly ino: number; readonly bytes: number },
  ): OpenLog {
    const log: OpenLog = {
      ...opened,
      fileBytes: opened.bytes,
      step: -1,
      transcript: { count: 0, hash: emptyHash },
      messageBytes: 0,
    };
    this.#logs.set(directory, log);
    if (this.#logs.size > maxOpenLogs) {
      const oldest = this.#logs.keys().next().value;
      // Closed under its own lock: a save of that run may be under way.
      if (oldest !== undefined) void folderLocks.run(oldest, () => this.#close(oldest));
    }
    return log;
  }

  /** Closes the run's file but remembers what it holds, so the next save appends without reading it. */
  async #release(log: OpenLog): Promise<void> {
    const handle = log.handle;
    log.handle = undefined;
    await handle?.close();
  }

  async #close(directory: string): Promise<void> {
    const log = this.#logs.get(directory);
    if (log === undefined) return;
    this.#logs.delete(directory);
    await log.handle?.close();
  }

  /**
   * Reads the run's log and replays it; keeps it open for the next save. `undefined` when the run
   * has no checkpoint.
   *
   * @throws {InvalidRunStateError} when a line other than the last is damaged, or a record is not a checkpoint.
   */
  async #read(
    files: CheckpointFiles,
    directory: string,
    runId: string,
  ): Promise<{ state: RunState } | undefined> {
    const path = files.join(directory, logFileName);
    await this.#close(directory);
    const identity = await files.fileIdentity(path);
    const bytes = identity === undefined ? undefined : await files.readBytes(path);
    if (identity === undefined || bytes === undefined) return undefined;
    const log = files.decodeLogLines(bytes);
    const damaged = (line: number, problem: string, value: unknown): never => {
      throw new InvalidRunStateError({
        path: '',
        value,
        runId,
        message: `line ${line + 1} of ${path} ${problem}: the checkpoint is damaged. Delete the run's checkpoint (store.delete), or restore the file from a backup.`,
      });
    };
    if (log.rest === 'damaged') damaged(log.badLine!, 'does not match its checksum', log.badLine! + 1);
    let messages: ChatMessage[] = [];
    const hashes: string[] = [];
    let fields: Omit<RunState, 'messages'> | undefined;
    let messageBytes = 0;
    for (const [index, line] of log.lines.entries()) {
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        return damaged(index, 'is not JSON', line.slice(0, 80));
      }
      if (
        typeof record !== 'object' ||
        record === null ||
        !Number.isSafeInteger(record.from) ||
        record.from < 0 ||
        record.from > messages.length ||
        !Array.isArray(record.messages) ||
        typeof record.state !== 'object'
      ) {
        return damaged(index, 'is not a checkpoint record of this format', line.slice(0, 80));
      }
      // A record no newer than the one before it (two writers at once) is not the newest state.
      if (fields !== undefined && !(record.step > fields.step)) continue;
      if (record.from < messages.length) {
        messages = messages.slice(0, record.from);
        hashes.length = record.from;
      }
      for (const message of record.messages) {
        const json = JSON.stringify(message);
        messageBytes += json.length;
        hashes.push(hashText(json, hashes.at(-1) ?? emptyHash));
        messages.push(message);
      }
      fields = record.state;
    }
    // Nothing whole was written (a crash during the first save): no checkpoint yet.
    if (fields === undefined) return undefined;
    const state = validateRunState({ ...fields, messages });
    const open = this.#remember(directory, { handle: undefined, ino: identity.ino, bytes: log.bytes });
    open.fileBytes = bytes.length;
    open.step = state.step;
    open.transcript = { count: hashes.length, hash: hashes.at(-1) ?? emptyHash };
    open.messageBytes = messageBytes;
    this.#trackers.remember(runId, messages, hashes, state.step, false);
    return { state };
  }
}

/** The JSON of a log record, from JSON already made (each message was serialised once, to hash it). */
function recordJson(step: number, from: number, messages: readonly string[], fieldsJson: string): string {
  return `{"step":${step},"from":${from},"messages":[${messages.join(',')}],"state":${fieldsJson}}`;
}

/** Every field of the state but its messages. */
function fieldsOf(state: RunState): Omit<RunState, 'messages'> {
  const { messages: _messages, ...fields } = state;
  return fields;
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
