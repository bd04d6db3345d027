import { describe, expect, it } from 'vitest';
import { ProgramWarming } from '../../../src/explore/index/program-warming.js';
import type { WarmStep } from '../../../src/explore/index/script-program.js';

/** A step that adds one file per call out of `files`, then reports nothing left to do. */
function countingStep(files: number): { readonly step: () => WarmStep; readonly calls: () => number } {
  let calls = 0;
  return {
    step: () => {
      calls += 1;
      const added = calls <= files ? 1 : 0;
      return { parsed: 0, added, remaining: Math.max(0, files - calls) };
    },
    calls: () => calls,
  };
}

async function settle(rounds = 50): Promise<void> {
  for (let round = 0; round < rounds; round += 1) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('ProgramWarming', () => {
  it('run() steps until a step has nothing left to do', async () => {
    const { step, calls } = countingStep(5);
    await new ProgramWarming({ step, background: false }).run();
    expect(calls()).toBe(6);
  });

  it('stops when a step neither parses nor adds anything, rather than spinning', async () => {
    let calls = 0;
    const warming = new ProgramWarming({
      step: () => {
        calls += 1;
        return { parsed: 0, added: 0, remaining: 3 };
      },
      background: false,
    });
    await warming.run();
    expect(calls).toBe(1);
  });

  it('run() stops at an aborted signal with its reason', async () => {
    const controller = new AbortController();
    const warming = new ProgramWarming({
      step: () => {
        controller.abort(new Error('enough'));
        return { parsed: 1, added: 0, remaining: 10 };
      },
      background: false,
    });
    await expect(warming.run(controller.signal)).rejects.toThrow('enough');
  });

  it('warms in the background after a question, and never while one is under way', async () => {
    let underWay = false;
    let stepsDuringQuestion = 0;
    let steps = 0;
    const warming = new ProgramWarming({
      step: () => {
        steps += 1;
        if (underWay) stepsDuringQuestion += 1;
        return { parsed: steps <= 20 ? 1 : 0, added: 0, remaining: Math.max(0, 20 - steps) };
      },
      background: true,
    });
    expect(steps).toBe(0);
    await warming.question(async () => {
      underWay = true;
      await settle(10);
      underWay = false;
    });
    // A second question starts while the first one's warming runs: warming waits for it.
    await settle(3);
    await warming.question(async () => {
      underWay = true;
      await settle(20);
      underWay = false;
    });
    await settle();
    expect(steps).toBe(21);
    expect(stepsDuringQuestion).toBe(0);
  });

  it('does not warm in the background when asked not to', async () => {
    const { step, calls } = countingStep(5);
    const warming = new ProgramWarming({ step, background: false });
    await warming.question(() => Promise.resolve('answer'));
    await settle();
    expect(calls()).toBe(0);
  });
});
