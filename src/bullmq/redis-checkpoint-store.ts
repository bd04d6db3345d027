import type { Redis } from 'ioredis';
import type { CheckpointStore } from '../durable/checkpoint-store.js';
import { checkRunId, checkSaveArguments } from '../durable/check-save-arguments.js';
import { RunLocks } from '../durable/run-locks.js';
import type { RunState } from '../durable/run-state.js';
import { TrackerCache } from '../durable/tracker-cache.js';
import type { StoredTranscript } from '../durable/transcript-tracker.js';
import { validateRunState } from '../durable/validate-run-state.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import type { ChatMessage } from '../model/messages.js';
import { emptyHash, hashText } from '../shared/hash-text.js';
import type { OwnedClient, RedisConnection } from './redis-connection.js';
import { clientFor, release } from './redis-connection.js';
import { damagedTranscript } from '../durable/damaged-transcript.js';

/** Options of {@link RedisCheckpointStore}. */
export interface RedisCheckpointStoreOptions {
  /** An `ioredis` client of yours (never closed by the store), or `ioredis` options. */
  readonly connection: RedisConnection;
  /** Put before every key of the store. @default 'tool-orchestrator:checkpoint:' */
  readonly keyPrefix?: string;
  /**
   * Seconds a run's keys stay after it ended (a final state saved): Redis then drops them. A run
   * awaiting approval, or still going, never expires. @default never: delete them yourself
   */
  readonly endedRunTtlSeconds?: number;
  /**
   * Called with errors of the client the store makes from options (Redis away, ...): commands wait
   * and go on once it is back. @default ignored
   */
  readonly onError?: (error: Error) => void;
}

/**
 * Saves a run's state atomically: KEYS = the run's hash and its message list; ARGV = step, the
 * state without messages, the count and hash the client expects stored, the first message to
 * write, the new count and hash, the stop reason, the TTL (0: none), then the messages to write.
 * Returns {1} when written, {0} when a state with a higher or equal step is stored, and
 * {2, count, hash} when the stored transcript is not the one expected (the client plans again).
 */
const saveScript = `
local stored = redis.call('HMGET', KEYS[1], 'step', 'count', 'hash')
if stored[1] then
  if tonumber(stored[1]) >= tonumber(ARGV[1]) then return {0} end
  if stored[2] ~= ARGV[3] or stored[3] ~= ARGV[4] then return {2, stored[2], stored[3]} end
elseif ARGV[3] ~= '0' then
  return {2, '0', ''}
end
local from = tonumber(ARGV[5])
if from == 0 then redis.call('DEL', KEYS[2]) else redis.call('LTRIM', KEYS[2], 0, from - 1) end
for first = 10, #ARGV, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(ARGV, first, math.min(first + 999, #ARGV)))
end
redis.call('HSET', KEYS[1], 'step', ARGV[1], 'state', ARGV[2], 'count', ARGV[6], 'hash', ARGV[7], 'stop', ARGV[8])
local ttl = tonumber(ARGV[9])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
return {1}
`;

/** The command name the store gives its save script on the client (`defineCommand`). */
const saveCommand = 'toolOrchestratorSaveCheckpoint';

type SaveReply = [0] | [1] | [2, string | null, string | null];

/**
 * Keeps checkpoints in Redis (`ioredis`, an optional peer dependency): per run, a hash with its
 * newest state without the messages, and a list of the messages as JSON, one entry each. A save is
 * one Lua script (one round trip, atomic: a crash leaves the previous checkpoint or the new one,
 * never a mix) that appends only the new messages, and rewrites the list from the first changed
 * message when a hook replaced the transcript. The script writes only when the state's `step` is
 * above the stored one, so saves of a run from any number of processes keep the newest.
 *
 * The default store of `createRunWorker`. Keys are `<keyPrefix>{<runId>}:state` and
 * `<keyPrefix>{<runId>}:messages` (one hash slot per run, so it works on Redis Cluster). The
 * client is made (and `ioredis` loaded) on first use: without `ioredis`, that call rejects with a
 * `MissingDependencyError` naming the install command.
 *
 * @example
 * import { RedisCheckpointStore } from 'tool-orchestrator/bullmq';
 * const store = new RedisCheckpointStore({ connection: { host: '127.0.0.1', port: 6379 } });
 */
export class RedisCheckpointStore implements CheckpointStore {
  readonly #options: RedisCheckpointStoreOptions;
  /** Made on first use: loading `ioredis` (an optional peer dependency) is asynchronous. */
  #connection: Promise<OwnedClient> | undefined;
  readonly #prefix: string;
  readonly #ttl: number;
  readonly #trackers = new TrackerCache();
  readonly #locks = new RunLocks();

  /** @throws {InvalidArgumentError} when `connection` is missing, or `endedRunTtlSeconds` is not a positive integer. */
  constructor(options: RedisCheckpointStoreOptions) {
    const connection = (options as { connection?: unknown } | undefined)?.connection;
    if (typeof connection !== 'object' || connection === null) {
      throw new InvalidArgumentError({
        argument: 'connection',
        value: connection,
        message: "must be an ioredis client or ioredis options, e.g. { host: '127.0.0.1', port: 6379 }.",
      });
    }
    const ttl = options.endedRunTtlSeconds;
    if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) {
      throw new InvalidArgumentError({
        argument: 'endedRunTtlSeconds',
        value: ttl,
        message: 'must be a whole number of seconds above 0, or left out (keys never expire).',
      });
    }
    this.#options = options;
    this.#prefix = options.keyPrefix ?? 'tool-orchestrator:checkpoint:';
    this.#ttl = ttl ?? 0;
  }

  /**
   * The client, made (or taken from `connection`) on first use, with the save script defined.
   *
   * @throws {MissingDependencyError} when `ioredis` is not installed (tried again on the next use).
   */
  async #client(): Promise<Redis> {
    if (this.#connection === undefined) {
      const connecting = this.#connect();
      this.#connection = connecting;
      connecting.catch(() => {
        if (this.#connection === connecting) this.#connection = undefined;
      });
    }
    return (await this.#connection).client;
  }

  async #connect(): Promise<OwnedClient> {
    const connection = await clientFor(this.#options.connection);
    const client = connection.client;
    if (connection.owned) client.on('error', (error: Error) => this.#options.onError?.(error));
    if (typeof (client as unknown as Record<string, unknown>)[saveCommand] !== 'function') {
      client.defineCommand(saveCommand, { numberOfKeys: 2, lua: saveScript });
    }
    return connection;
  }

  /** Stores `state` unless a state with a higher or equal `step` is stored already. */
  async save(runId: string, state: RunState): Promise<void> {
    checkSaveArguments(runId, state);
    await this.#locks.run(runId, () => this.#save(runId, state));
  }

  async #save(runId: string, state: RunState): Promise<void> {
    const client = await this.#client();
    const tracker = this.#trackers.get(runId);
    const prepared = tracker.prepare(state.messages);
    const { messages: _messages, ...fields } = state;
    const ended = state.result !== null;
    let expected: StoredTranscript = tracker.stored;
    // A second try only when another process changed the stored transcript since this one wrote;
    // a third when it changed it again in between.
    for (let attempt = 1; attempt <= 3; attempt++) {
      const { from } = prepared.planWrite(expected);
      const written: string[] = [];
      for (let index = from; index < prepared.messages.length; index++) written.push(prepared.json(index));
      const reply = (await (
        client as unknown as Record<string, (...args: (string | number)[]) => Promise<SaveReply>>
      )[saveCommand]!(
        ...this.#keys(runId),
        state.step,
        JSON.stringify(fields),
        String(expected.count),
        expected.count === 0 ? '' : expected.hash,
        from,
        prepared.messages.length,
        prepared.messages.length === 0 ? '' : prepared.stored.hash,
        state.stopReason ?? '',
        ended ? this.#ttl : 0,
        ...written,
      )) as SaveReply;
      if (reply[0] === 0) return;
      if (reply[0] === 1) {
        this.#trackers.remember(runId, prepared.messages, prepared.hashes, state.step, ended);
        return;
      }
      const count = Number(reply[1] ?? 0);
      expected = { count, hash: count === 0 ? emptyHash : (reply[2] ?? '') };
    }
    throw new InvalidRunStateError({
      path: 'messages',
      value: state.step,
      runId,
      message:
        'the stored transcript changed under every attempt to save: another process writes this run at the same time.',
    });
  }

  /** The newest state of `runId`; `undefined` when none is stored. */
  async load(runId: string): Promise<RunState | undefined> {
    checkRunId(runId);
    const [stateKey, messagesKey] = this.#keys(runId);
    // One transaction: the hash and the list come from the same moment.
    const client = await this.#client();
    const replies = await client
      .multi()
      .hmget(stateKey, 'state', 'count', 'hash', 'step')
      .lrange(messagesKey, 0, -1)
      .exec();
    const [fieldsReply, listReply] = replies ?? [];
    if (fieldsReply?.[0] != null) throw fieldsReply[0];
    if (listReply?.[0] != null) throw listReply[0];
    const [json, countText, storedHash, step] = fieldsReply?.[1] as (string | null)[];
    if (json === null || json === undefined) return undefined;
    const list = listReply?.[1] as string[];
    const damaged = (message: string, value: unknown): never => damagedTranscript(runId, message, value);
    if (list.length !== Number(countText)) {
      damaged(
        `the state counts ${String(countText)} messages, the message list holds ${list.length}`,
        list.length,
      );
    }
    const messages: ChatMessage[] = [];
    const hashes: string[] = [];
    let previous = emptyHash;
    for (const text of list) {
      previous = hashText(text, previous);
      hashes.push(previous);
      messages.push(JSON.parse(text) as ChatMessage);
    }
    if (list.length > 0 && previous !== storedHash) {
      damaged('the stored messages do not match the transcript hash of the state', previous);
    }
    const state = validateRunState({ ...(JSON.parse(json) as object), messages });
    this.#trackers.remember(runId, messages, hashes, Number(step), state.result !== null);
    return state;
  }

  /** Removes the run's keys. */
  async delete(runId: string): Promise<void> {
    checkRunId(runId);
    await this.#locks.run(runId, async () => {
      this.#trackers.forget(runId);
      await (await this.#client()).del(...this.#keys(runId));
    });
  }

  /** Closes the client the store made from options; a client you gave is left open. */
  async close(): Promise<void> {
    // Nothing to close when the store was never used, or could not make its client.
    const connection = await this.#connection?.catch(() => undefined);
    if (connection !== undefined) await release(connection);
  }

  #keys(runId: string): [string, string] {
    const base = `${this.#prefix}{${runId}}`;
    return [`${base}:state`, `${base}:messages`];
  }
}
