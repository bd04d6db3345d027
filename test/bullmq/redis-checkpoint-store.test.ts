import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/index.js';
import { RedisCheckpointStore } from '../../src/bullmq.js';
import { describeCheckpointStoreContract } from '../durable/checkpoint-store-contract.js';
import { useRedisServer } from '../support/redis-fixture.js';
import { growingStates, makeRunState } from '../support/run-states.js';

const redis = useRedisServer();
let client: Redis;
let prefixCount = 0;

beforeAll(() => {
  if (redis.skipReason === undefined)
    client = new Redis({ ...redis.server.connection, maxRetriesPerRequest: null });
});
afterAll(() => {
  client?.disconnect();
});

/** A key prefix of its own for each test, so tests share the server but not the data. */
const freshPrefix = (): string => `test-${++prefixCount}:`;

describeCheckpointStoreContract(
  'RedisCheckpointStore',
  async () => {
    const keyPrefix = freshPrefix();
    return {
      store: new RedisCheckpointStore({ connection: client, keyPrefix }),
      sibling: () => new RedisCheckpointStore({ connection: client, keyPrefix }),
      cleanup: async () => undefined,
    };
  },
  () => redis.skipReason,
);

/** Commands the clients sent so far (`INFO commandstats`), those a script ran inside Redis aside. */
async function commandsSent(): Promise<Record<string, number>> {
  const info = await client.info('commandstats');
  return Object.fromEntries(
    [...info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)].map((match) => [match[1]!, Number(match[2])]),
  );
}

describe('RedisCheckpointStore in Redis', () => {
  it('keeps one hash and one list per run, appending new messages only, one round trip per save', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const keyPrefix = freshPrefix();
    const store = new RedisCheckpointStore({ connection: client, keyPrefix });
    const states = growingStates('rows', 30);
    await store.save('rows', states[0]!);
    const before = await commandsSent();
    for (const state of states.slice(1)) await store.save(state.runId, state);
    const after = await commandsSent();
    // One EVALSHA per save, and nothing else sent (the INFO call aside).
    expect((after['evalsha'] ?? 0) - (before['evalsha'] ?? 0)).toBe(states.length - 1);
    const sent = (counts: Record<string, number>, scripted: readonly string[]) =>
      Object.entries(counts)
        .filter(([name]) => !scripted.includes(name))
        .reduce((sum, [, calls]) => sum + calls, 0);
    // Commands a script runs are counted too: leave them out.
    const inScripts = ['hmget', 'ltrim', 'rpush', 'hset', 'del', 'expire', 'evalsha', 'info'];
    expect(sent(after, inScripts) - sent(before, inScripts)).toBe(0);
    expect(await client.keys(`${keyPrefix}*`)).toEqual(
      expect.arrayContaining([`${keyPrefix}{rows}:state`, `${keyPrefix}{rows}:messages`]),
    );
    const last = states.at(-1)!;
    expect(await client.llen(`${keyPrefix}{rows}:messages`)).toBe(last.messages.length);
    expect(await client.lindex(`${keyPrefix}{rows}:messages`, 0)).toBe(JSON.stringify(last.messages[0]));
    expect(await store.load('rows')).toEqual(last);
  });

  it('rewrites from the first changed message when a hook replaced the transcript', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const keyPrefix = freshPrefix();
    const store = new RedisCheckpointStore({ connection: client, keyPrefix });
    const states = growingStates('edited', 10);
    for (const state of states) await store.save(state.runId, state);
    const last = states.at(-1)!;
    const edited = last.messages.map((message, index) =>
      index === 15 ? { ...message, content: 'masked' } : message,
    ) as typeof last.messages;
    await store.save('edited', { ...last, step: last.step + 1, messages: edited });
    expect((await store.load('edited'))?.messages).toEqual(edited);
    expect(await new RedisCheckpointStore({ connection: client, keyPrefix }).load('edited')).toEqual({
      ...last,
      step: last.step + 1,
      messages: edited,
    });
  });

  it('refuses a damaged checkpoint: a message list that does not match the state', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const keyPrefix = freshPrefix();
    const store = new RedisCheckpointStore({ connection: client, keyPrefix });
    const states = growingStates('damaged', 3);
    for (const state of states) await store.save(state.runId, state);
    await client.lset(
      `${keyPrefix}{damaged}:messages`,
      1,
      JSON.stringify({ role: 'user', content: 'forged' }),
    );
    await expect(store.load('damaged')).rejects.toThrow(/do not match the transcript hash.*damaged/);
    await client.rpop(`${keyPrefix}{damaged}:messages`);
    await expect(store.load('damaged')).rejects.toThrow(/the message list holds/);
  });

  it('lets the keys of an ended run expire after endedRunTtlSeconds, never those of a run going on', async (context) => {
    if (redis.skipReason !== undefined) context.skip(redis.skipReason);
    const keyPrefix = freshPrefix();
    const store = new RedisCheckpointStore({ connection: client, keyPrefix, endedRunTtlSeconds: 60 });
    await store.save('going', makeRunState({ runId: 'going' }));
    await store.save('waiting', makeRunState({ runId: 'waiting', stopReason: 'awaiting_approval' }));
    await store.save(
      'ended',
      makeRunState({ runId: 'ended', stopReason: 'final', result: { content: 'done' } }),
    );
    expect(await client.ttl(`${keyPrefix}{going}:state`)).toBe(-1);
    expect(await client.ttl(`${keyPrefix}{waiting}:state`)).toBe(-1);
    expect(await client.ttl(`${keyPrefix}{ended}:state`)).toBeGreaterThan(50);
    expect(await client.ttl(`${keyPrefix}{ended}:messages`)).toBeGreaterThan(50);
  });

  it('names the bad option', () => {
    expect(() => new RedisCheckpointStore({} as never)).toThrow(InvalidArgumentError);
    expect(() => new RedisCheckpointStore({} as never)).toThrow(
      /connection.*ioredis client or ioredis options/,
    );
    expect(
      () => new RedisCheckpointStore({ connection: { host: '127.0.0.1' }, endedRunTtlSeconds: 0.5 }),
    ).toThrow(/endedRunTtlSeconds \(0\.5\)/);
  });
});
