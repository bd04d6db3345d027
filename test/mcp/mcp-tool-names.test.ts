import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignToolNames } from '../../src/mcp/mcp-tool-names.js';

describe('assignToolNames', () => {
  it('keeps valid names, prefixes them and replaces what model APIs refuse', () => {
    expect(Object.fromEntries(assignToolNames(['read_file', 'git.log', 'über tool', 'a/b']))).toEqual({
      read_file: 'read_file',
      'git.log': 'git_log',
      'über tool': '_ber_tool',
      'a/b': 'a_b',
    });
    expect(assignToolNames(['read'], 'fs').get('read')).toBe('fs__read');
  });

  it('gives the plain name to the tool that needed no change, whatever the order', () => {
    expect(assignToolNames(['a.b', 'a_b']).get('a_b')).toBe('a_b');
    expect(assignToolNames(['a_b', 'a.b']).get('a.b')).toBe('a_b_2');
    // A suffixed name never takes another tool's own name.
    const names = assignToolNames(['a.b', 'a b', 'a_b_2']);
    expect(names.get('a_b_2')).toBe('a_b_2');
    expect(names.get('a b')).toBe('a_b');
    expect(names.get('a.b')).toBe('a_b_3');
  });

  it('cuts long names to 64 characters, ending them with a hash of the original', () => {
    const long = `${'x'.repeat(80)}_one`;
    const other = `${'x'.repeat(80)}_two`;
    const names = assignToolNames([long, other], 'server');
    expect(names.get(long)).toHaveLength(64);
    expect(names.get(long)).toMatch(/^server__x+_[0-9a-f]{8}$/);
    expect(names.get(long)).not.toBe(names.get(other));
  });

  it('always gives valid, distinct names that do not depend on the listing order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.oneof(fc.string({ maxLength: 90 }), fc.constantFrom('a.b', 'a_b', 'a b', 'a_b_2', '')),
          {
            maxLength: 12,
          },
        ),
        fc.option(fc.stringMatching(/^[a-zA-Z0-9_-]{1,32}$/), { nil: undefined }),
        (names, prefix) => {
          const assigned = assignToolNames(names, prefix);
          const values = [...assigned.values()];
          expect(values.every((name) => /^[a-zA-Z0-9_-]{1,64}$/.test(name))).toBe(true);
          expect(new Set(values).size).toBe(names.length);
          const reversed = assignToolNames([...names].reverse(), prefix);
          for (const name of names) expect(reversed.get(name)).toBe(assigned.get(name));
        },
      ),
    );
  });
});
