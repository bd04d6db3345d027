/** What `describeThrown` says of a value that has no usable text at all. */
export const undescribable = 'a value that is not an Error and cannot be converted to text';

/** A Proxy whose every read, and whose prototype lookup (so `instanceof`), throws. */
export function trappedProxy(): object {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('trap');
      },
      getPrototypeOf() {
        throw new Error('trap');
      },
    },
  );
}

/**
 * Values a buggy tool may throw, each with the text a tool error shows for it: none of them may
 * break a run, and each is built fresh on every call.
 */
export const hostileThrownValues: readonly (readonly [
  name: string,
  make: () => unknown,
  described: string,
])[] = [
  ['plainError', () => new Error('plain failure'), 'plain failure'],
  ['nullPrototype', () => Object.create(null), undescribable],
  ['nullPrototypeWithFields', () => Object.assign(Object.create(null), { code: 'E1' }), '{"code":"E1"}'],
  ['trappedProxy', trappedProxy, undescribable],
  [
    'revokedProxy',
    () => {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return proxy;
    },
    undescribable,
  ],
  [
    'throwingMessage',
    () => {
      const error = new Error('hidden');
      Object.defineProperty(error, 'message', {
        get() {
          throw new Error('no message');
        },
      });
      return error;
    },
    'a thrown Error whose message cannot be read',
  ],
  [
    'throwingToString',
    () => ({
      toString() {
        throw new Error('no text');
      },
    }),
    undescribable,
  ],
  ['symbol', () => Symbol('odd'), 'Symbol(odd)'],
  ['undefinedValue', () => undefined, 'undefined'],
  ['plainObject', () => ({ status: 503 }), '{"status":503}'],
];
