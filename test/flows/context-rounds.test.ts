import { describe, expect, it } from 'vitest';
import { runContextRounds } from '../../src/flows/context/context-rounds.js';
import type {
  ContextRequest,
  ContextResult,
  FulfillContextInput,
} from '../../src/flows/context/context-schemas.js';

// The loop exploreContext and exploreContextWorkflow share, driven by scripted steps.

const request = (path: string): ContextRequest => ({
  provider: 'read_file',
  params: { path },
  reason: 'look',
});

function scripted(rounds: readonly (readonly ContextRequest[])[]) {
  const fulfilled: FulfillContextInput[] = [];
  const asked: { context: string; round: number }[] = [];
  return {
    fulfilled,
    asked,
    steps: {
      ask: (context: string, round: number) => {
        asked.push({ context, round });
        return Promise.resolve(rounds[round - 1] ?? []);
      },
      fulfill: (input: FulfillContextInput) => {
        fulfilled.push(input);
        const results = input.requests.map((each): ContextResult => ({
          provider: each.provider,
          params: each.params ?? {},
          ok: true,
          truncated: false,
          content: `content of ${JSON.stringify(each.params)}`,
        }));
        return Promise.resolve({
          results,
          fulfilledKeys: input.requests.map((each) => JSON.stringify(each.params)),
          duplicates: [],
        });
      },
    },
  };
}

const settings = { initialContext: 'ticket', maxContextChars: 10_000, maxResultChars: 1_000 };

describe('runContextRounds', () => {
  it('puts the target files first, then asks and fulfils until the model asks for nothing', async () => {
    const run = scripted([[request('a.ts')], [request('b.ts')], []]);
    const result = await runContextRounds({ ...settings, maxRounds: 10, targetFiles: ['x.ts'] }, run.steps);
    expect(result.ready).toBe(true);
    expect(result.rounds).toBe(3);
    expect(result.requests).toEqual([request('a.ts'), request('b.ts')]);
    expect(run.fulfilled.map((input) => input.requests[0]?.provider)).toEqual([
      'discover_context',
      'read_file',
      'read_file',
    ]);
    // Each round passes on what earlier rounds fulfilled, and sees the context they added.
    expect(run.fulfilled[2]?.fulfilledKeys).toEqual([
      JSON.stringify({ target_files: ['x.ts'] }),
      JSON.stringify({ path: 'a.ts' }),
    ]);
    expect(run.asked[2]?.context).toContain('content of {"path":"b.ts"}');
    expect(result.context.startsWith('ticket')).toBe(true);
  });

  it('stops at maxRounds, not ready; 0 rounds asks nothing and is ready', async () => {
    const always = scripted([[request('a.ts')], [request('b.ts')], [request('c.ts')]]);
    const capped = await runContextRounds({ ...settings, maxRounds: 2, targetFiles: [] }, always.steps);
    expect(capped).toMatchObject({ rounds: 2, ready: false });
    const none = scripted([[request('a.ts')]]);
    const skipped = await runContextRounds({ ...settings, maxRounds: 0, targetFiles: [] }, none.steps);
    expect(skipped).toMatchObject({ rounds: 0, ready: true, context: 'ticket' });
    expect(none.asked).toEqual([]);
  });
});
