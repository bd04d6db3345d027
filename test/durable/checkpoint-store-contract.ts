import { describe, expect, it } from 'vitest';
import type { ChatMessage, CheckpointStore, RunState } from '../../src/index.js';
import { InvalidArgumentError, InvalidRunStateError } from '../../src/index.js';
import { growingStates, makeRunState, toolTurnMessages } from '../support/run-states.js';

/** How a contract run gets its stores. */
export interface StoreUnderTest {
  /** A store on fresh, empty storage. */
  readonly store: CheckpointStore;
  /**
   * Another store instance on the same storage (a second process, as far as the store can tell),
   * or `undefined` for a store whose storage is the instance itself (memory).
   */
  readonly sibling: (() => CheckpointStore) | undefined;
  readonly cleanup: () => Promise<void>;
}

/**
 * The contract every `CheckpointStore` keeps, run identically against each store. `skip` returns
 * why the store cannot be had here (a missing server), or `undefined`.
 */
export function describeCheckpointStoreContract(
  name: string,
  open: () => Promise<StoreUnderTest>,
  skip: () => string | undefined = () => undefined,
): void {
  describe(`${name} keeps the CheckpointStore contract`, () => {
    const withStore =
      (test: (subject: StoreUnderTest) => Promise<void>) =>
      async (context: { skip: (note?: string) => void }): Promise<void> => {
        const reason = skip();
        if (reason !== undefined) {
          context.skip(reason);
          return;
        }
        const subject = await open();
        try {
          await test(subject);
        } finally {
          await subject.cleanup();
        }
      };

    it(
      'loads what it saved, every field and awkward text included',
      withStore(async ({ store }) => {
        const state = richState('round-trip');
        await store.save(state.runId, state);
        expect(await store.load(state.runId)).toEqual(state);
      }),
    );

    it(
      'loads undefined for a run it never saved, and keeps runs apart',
      withStore(async ({ store }) => {
        expect(await store.load('never-saved')).toBeUndefined();
        const first = makeRunState({ runId: 'first', messages: [{ role: 'user', content: 'one' }] });
        const second = makeRunState({ runId: 'second', messages: [{ role: 'user', content: 'two' }] });
        await store.save('first', first);
        await store.save('second', second);
        expect(await store.load('first')).toEqual(first);
        expect(await store.load('second')).toEqual(second);
        expect(await store.load('third')).toBeUndefined();
      }),
    );

    it(
      'round-trips run ids with slashes, dots, spaces and non-ASCII letters, each apart',
      withStore(async ({ store }) => {
        const ids = ['a/b', '../escape', '.', 'with space', 'Grüße-🙂', `x${'y'.repeat(60)}`];
        for (const [index, runId] of ids.entries()) {
          await store.save(runId, makeRunState({ runId, step: index }));
        }
        for (const [index, runId] of ids.entries()) {
          expect((await store.load(runId))?.step, runId).toBe(index);
        }
      }),
    );

    it(
      'deletes a run (a no-op for an unknown one), and saves it anew after',
      withStore(async ({ store }) => {
        const states = growingStates('deleted', 3);
        for (const state of states) await store.save(state.runId, state);
        await store.delete('deleted');
        expect(await store.load('deleted')).toBeUndefined();
        await store.delete('deleted');
        await store.delete('never-saved');
        const fresh = makeRunState({
          runId: 'deleted',
          step: 1,
          messages: [{ role: 'user', content: 'again' }],
        });
        await store.save('deleted', fresh);
        expect(await store.load('deleted')).toEqual(fresh);
      }),
    );

    it(
      'keeps the newest state: a save with a lower or equal step is ignored',
      withStore(async ({ store }) => {
        const [, second, third] = growingStates('newest', 2);
        await store.save('newest', third!);
        await store.save('newest', second!);
        expect(await store.load('newest')).toEqual(third);
        await store.save('newest', { ...third!, turns: 99 });
        expect((await store.load('newest'))?.turns).toBe(third!.turns);
      }),
    );

    it(
      'follows a growing transcript save by save (S3: 60 turns, 2 KB results)',
      withStore(async ({ store }) => {
        const states = growingStates('growing', 30);
        for (const [index, state] of states.entries()) {
          await store.save(state.runId, state);
          if (index % 7 === 0 || index === states.length - 1)
            expect(await store.load('growing')).toEqual(state);
        }
      }),
    );

    it(
      'round-trips a large transcript: 2,000 messages of 2 KB, and one message of 1 MB',
      withStore(async ({ store }) => {
        const messages: ChatMessage[] = [{ role: 'user', content: 'start' }];
        for (let turn = 0; turn < 1000; turn++) messages.push(...toolTurnMessages(turn, 2048));
        const first = makeRunState({ runId: 'large', step: 1, messages: messages.slice() });
        await store.save('large', first);
        messages.push({ role: 'assistant', content: 'y'.repeat(1024 * 1024) });
        const second = makeRunState({ runId: 'large', step: 2, messages });
        await store.save('large', second);
        const loaded = await store.load('large');
        expect(loaded?.messages).toHaveLength(2002);
        expect(loaded).toEqual(second);
      }),
    );

    it(
      'notices a replaced transcript (a hook compacted it, or edited one message) and goes on appending after',
      withStore(async ({ store }) => {
        const states = growingStates('replaced', 10);
        for (const state of states) await store.save(state.runId, state);
        const last = states.at(-1)!;
        // Compacted: a summary in place of the old turns, the last turn kept.
        const compacted: ChatMessage[] = [
          last.messages[0]!,
          { role: 'user', content: 'Summary of pages 0-8.' },
          ...last.messages.slice(-2),
        ];
        let step = last.step;
        const replaced = { ...last, step: ++step, messages: compacted };
        await store.save('replaced', replaced);
        expect(await store.load('replaced')).toEqual(replaced);
        const extended = { ...last, step: ++step, messages: [...compacted, ...toolTurnMessages(50, 100)] };
        await store.save('replaced', extended);
        expect(await store.load('replaced')).toEqual(extended);
        // Same length, one message in the middle changed.
        const edited = extended.messages.map((message, index) =>
          index === 2 ? { ...message, content: 'edited' } : message,
        ) as ChatMessage[];
        const editedState = { ...extended, step: ++step, messages: edited };
        await store.save('replaced', editedState);
        expect(await store.load('replaced')).toEqual(editedState);
        // Shorter than before: the last turn dropped.
        const shorter = { ...editedState, step: step + 1, messages: edited.slice(0, 3) };
        await store.save('replaced', shorter);
        expect(await store.load('replaced')).toEqual(shorter);
      }),
    );

    it(
      'takes copies of the messages (equal, not the same objects) as the same transcript',
      withStore(async ({ store }) => {
        const states = growingStates('copied', 4);
        for (const state of states) await store.save(state.runId, structuredClone(state));
        expect(await store.load('copied')).toEqual(states.at(-1));
      }),
    );

    it(
      'is not changed by changes the caller makes to a state after saving it',
      withStore(async ({ store }) => {
        const messages: ChatMessage[] = [{ role: 'user', content: 'hi' }];
        const state = makeRunState({ runId: 'mutated', messages, strategyState: { mask: { upTo: 1 } } });
        const expected = structuredClone(state);
        await store.save('mutated', state);
        messages.push({ role: 'assistant', content: 'later' });
        (state.strategyState as { mask: { upTo: number } }).mask.upTo = 99;
        expect(await store.load('mutated')).toEqual(expected);
      }),
    );

    it(
      'keeps the newest of many saves of one run started at once, in any order',
      withStore(async ({ store, sibling }) => {
        const states = growingStates('concurrent', 20);
        const order = shuffled(states, 7);
        const stores = sibling === undefined ? [store] : [store, sibling(), sibling()];
        await Promise.all(
          order.map((state, index) => stores[index % stores.length]!.save(state.runId, state)),
        );
        expect(await store.load('concurrent')).toEqual(states.at(-1));
        // And the run goes on from there, through every instance.
        const more = growingStates('concurrent', 22).slice(40);
        for (const [index, state] of more.entries())
          await stores[index % stores.length]!.save(state.runId, state);
        expect(await store.load('concurrent')).toEqual(more.at(-1));
      }),
    );

    it(
      'refuses a save under another run id, a state of another version and a bad run id, naming them',
      withStore(async ({ store }) => {
        const state = makeRunState({ runId: 'mine' });
        await expect(store.save('theirs', state)).rejects.toThrow(InvalidArgumentError);
        await expect(store.save('theirs', state)).rejects.toThrow(
          /runId \("theirs"\).*state's own runId \("mine"\)/,
        );
        const future = { ...state, version: 2 } as unknown as RunState;
        await expect(store.save('mine', future)).rejects.toThrow(InvalidRunStateError);
        await expect(store.save('mine', future)).rejects.toThrow(/version \(2\).*newer tool-orchestrator/);
        await expect(store.load('')).rejects.toThrow(InvalidArgumentError);
        await expect(store.delete(42 as unknown as string)).rejects.toThrow(/Invalid runId \(42\)/);
        expect(await store.load('mine')).toBeUndefined();
      }),
    );

    it(
      'lets another instance on the same storage load a run and go on saving it',
      withStore(async ({ store, sibling }) => {
        if (sibling === undefined) return; // Memory: the instance is the storage.
        const states = growingStates('handover', 8);
        for (const state of states.slice(0, 8)) await store.save(state.runId, state);
        const other = sibling();
        expect(await other.load('handover')).toEqual(states[7]);
        for (const state of states.slice(8, 12)) await other.save(state.runId, state);
        // The first instance's memory of the run is now stale; it must still append correctly.
        for (const state of states.slice(12)) await store.save(state.runId, state);
        expect(await other.load('handover')).toEqual(states.at(-1));
      }),
    );
  });
}

/** A state with every optional part filled, and text that trips up careless storage. */
function richState(runId: string): RunState {
  const awkward =
    'nul \u0000, lone surrogate \ud800, emoji 🙂, quote " backslash \\ newline \n, U+2028 \u2028 end';
  return makeRunState({
    runId,
    step: 7,
    turns: 2,
    usage: {
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      reasoningTokens: 2,
      cachedPromptTokens: 4,
    },
    messages: [
      { role: 'system', content: 'sys' },
      { role: 'user', content: awkward, name: 'alice' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: 'thinking…',
        tool_calls: [
          {
            id: 'call_a',
            type: 'function',
            function: { name: 'delete_file', arguments: '{"path":"/tmp/x"}' },
          },
          { id: 'call_b', type: 'function', function: { name: 'read', arguments: '{}' } },
          { id: 'call_c', type: 'function', function: { name: 'read', arguments: '{"bad json' } },
        ],
      },
    ],
    currentTurn: {
      turnIndex: 1,
      toolCalls: [
        { toolCallId: 'call_a', name: 'delete_file', arguments: '{"path":"/tmp/x"}', status: 'pending' },
        {
          toolCallId: 'call_b',
          name: 'read',
          arguments: '{}',
          status: 'done',
          outcome: { content: awkward, durationMs: 1.5 },
        },
        {
          toolCallId: 'call_c',
          name: 'read',
          arguments: '{"bad json',
          status: 'done',
          outcome: { content: '{"error":"bad"}', errorCode: 'invalid_json' },
        },
      ],
    },
    pendingApprovals: [{ toolCallId: 'call_a', name: 'delete_file', arguments: '{"path":"/tmp/x"}' }],
    approvalDecisions: { call_old: { approved: false, reason: 'not today' }, call_older: { approved: true } },
    stopReason: 'awaiting_approval',
    strategyState: { contextWindow: { maskedUpTo: 3, notes: [awkward, 1.25, true, null] } },
  });
}

/** A deterministic shuffle. */
function shuffled<Item>(items: readonly Item[], seed: number): Item[] {
  const copy = [...items];
  let random = seed;
  for (let index = copy.length - 1; index > 0; index--) {
    random = (random * 1103515245 + 12345) % 2147483648;
    const other = random % (index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
