import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstDifference, firstDifferenceOfCopies } from '../../src/replay/first-difference.js';
import { createRedactor } from '../../src/replay/redact.js';

const redactor = createRedactor({ values: ['hunter2'] }, { EXAMPLE_API_KEY: 'tok_secret_value_123' });

/** JSON-ish values with the secrets and credential fields a request may carry. */
const leaf = fc.oneof(
  fc.constantFrom('hunter2', 'tok_secret_value_123', 'Bearer abcdefghijkl', 'plain', '[REDACTED]', ''),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -3, max: 3 }),
  fc.boolean(),
  fc.constant(null),
);
const key = fc.constantFrom('content', 'role', 'apiKey', 'authorization', 'name', 'arguments');
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(key, tie('value'), { maxKeys: 3 }),
  ),
}));

describe('firstDifference', () => {
  it('agrees with redacting a copy and comparing it plainly, whatever the two values', () => {
    fc.assert(
      fc.property(value, value, (recorded, received) => {
        const written = redactor.copy(recorded);
        expect(firstDifference(written, received, redactor)).toEqual(
          firstDifferenceOfCopies(written, received, redactor),
        );
        // A request always matches its own recording.
        expect(firstDifference(redactor.copy(received), received, redactor)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('names the path of the first difference, showing the received value without its secrets', () => {
    const recorded = { messages: [{ role: 'user', content: 'a' }], tools: [] };
    const received = { messages: [{ role: 'user', content: 'b hunter2' }], tools: [] };
    expect(firstDifference(recorded, received, redactor)).toEqual({
      path: 'messages[0].content',
      recorded: 'a',
      received: 'b [REDACTED]',
    });
  });
});
