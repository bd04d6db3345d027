import { describe, expect, it } from 'vitest';
import { whenAborted } from '../../src/shared/when-aborted.js';

describe('whenAborted', () => {
  it('serves every watcher of a signal from one abort listener, in order, once', () => {
    const controller = new AbortController();
    const added: string[] = [];
    const signal = controller.signal;
    const original = signal.addEventListener.bind(signal);
    signal.addEventListener = ((type: string, ...rest: [never, never]) => {
      added.push(type);
      original(type, ...rest);
    }) as typeof signal.addEventListener;
    const calls: number[] = [];
    for (let index = 0; index < 100; index++) whenAborted(signal, () => calls.push(index));
    expect(added).toEqual(['abort']);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(Array.from({ length: 100 }, (_, index) => index));
  });

  it('does not call a watcher that stopped watching', () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const stop = whenAborted(controller.signal, () => calls.push('stopped'));
    whenAborted(controller.signal, () => calls.push('kept'));
    stop();
    stop();
    controller.abort();
    expect(calls).toEqual(['kept']);
  });

  it('calls the handler at once for a signal that has already aborted', () => {
    const calls: string[] = [];
    const stop = whenAborted(AbortSignal.abort(), () => calls.push('now'));
    expect(calls).toEqual(['now']);
    stop();
  });

  it('still calls later watchers when one throws, and reports the error as uncaught', async () => {
    const controller = new AbortController();
    const calls: string[] = [];
    const reported = new Promise<unknown>((resolve) => {
      const listener = (error: unknown): void => {
        process.off('uncaughtException', listener);
        resolve(error);
      };
      process.on('uncaughtException', listener);
    });
    whenAborted(controller.signal, () => {
      throw new Error('watcher failed');
    });
    whenAborted(controller.signal, () => calls.push('second'));
    controller.abort();
    expect(calls).toEqual(['second']);
    expect(await reported).toMatchObject({ message: 'watcher failed' });
  });
});
