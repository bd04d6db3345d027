import { describe, expect, it } from 'vitest';
import { SignalWatchers } from '../../src/shared/signal-watchers.js';

describe('SignalWatchers', () => {
  it('serves every watcher of a signal from one abort listener, in order, once', () => {
    const watchers = new SignalWatchers();
    const controller = new AbortController();
    const added: string[] = [];
    const signal = controller.signal;
    const original = signal.addEventListener.bind(signal);
    signal.addEventListener = ((type: string, ...rest: [never, never]) => {
      added.push(type);
      original(type, ...rest);
    }) as typeof signal.addEventListener;
    const calls: number[] = [];
    for (let index = 0; index < 100; index++) watchers.watch(signal, () => calls.push(index));
    expect(added).toEqual(['abort']);
    controller.abort();
    controller.abort();
    expect(calls).toEqual(Array.from({ length: 100 }, (_, index) => index));
  });

  it('does not call a watcher that stopped watching', () => {
    const watchers = new SignalWatchers();
    const controller = new AbortController();
    const calls: string[] = [];
    const stop = watchers.watch(controller.signal, () => calls.push('stopped'));
    watchers.watch(controller.signal, () => calls.push('kept'));
    stop();
    stop();
    controller.abort();
    expect(calls).toEqual(['kept']);
  });

  it('calls the handler at once for a signal that has already aborted', () => {
    const watchers = new SignalWatchers();
    const calls: string[] = [];
    const stop = watchers.watch(AbortSignal.abort(), () => calls.push('now'));
    expect(calls).toEqual(['now']);
    stop();
  });

  it('still calls later watchers when one throws, and reports the error as uncaught', async () => {
    const watchers = new SignalWatchers();
    const controller = new AbortController();
    const calls: string[] = [];
    const reported = new Promise<unknown>((resolve) => {
      const listener = (error: unknown): void => {
        process.off('uncaughtException', listener);
        resolve(error);
      };
      process.on('uncaughtException', listener);
    });
    watchers.watch(controller.signal, () => {
      throw new Error('watcher failed');
    });
    watchers.watch(controller.signal, () => calls.push('second'));
    controller.abort();
    expect(calls).toEqual(['second']);
    expect(await reported).toMatchObject({ message: 'watcher failed' });
  });

  it('removes its listener once the last watcher of a signal stops, and listens again for a new one', () => {
    const controller = new AbortController();
    const signal = controller.signal;
    const listening: string[] = [];
    const add = signal.addEventListener.bind(signal);
    const remove = signal.removeEventListener.bind(signal);
    signal.addEventListener = ((type: string, ...rest: [never, never]) => {
      listening.push(`+${type}`);
      add(type, ...rest);
    }) as typeof signal.addEventListener;
    signal.removeEventListener = ((type: string, ...rest: [never, never]) => {
      listening.push(`-${type}`);
      remove(type, ...rest);
    }) as typeof signal.removeEventListener;
    const watchers = new SignalWatchers();
    const calls: string[] = [];
    const first = watchers.watch(signal, () => calls.push('first'));
    const second = watchers.watch(signal, () => calls.push('second'));
    first();
    expect(listening).toEqual(['+abort']);
    second();
    expect(listening).toEqual(['+abort', '-abort']);
    watchers.watch(signal, () => calls.push('third'));
    controller.abort();
    expect(listening).toEqual(['+abort', '-abort', '+abort']);
    expect(calls).toEqual(['third']);
  });
});
