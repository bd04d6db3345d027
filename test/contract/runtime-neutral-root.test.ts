import { describe, expect, it } from 'vitest';
import { specifiersOf } from '../support/bundle-imports.js';

describe('the root entry is runtime-neutral', () => {
  for (const file of ['index.js', 'index.cjs', 'testing.js']) {
    it(`${file} imports nothing Node-only and no provider SDK`, () => {
      const specifiers = [...specifiersOf(file)];
      const nodeOnly = specifiers.filter(
        (specifier) =>
          specifier.startsWith('node:') ||
          ['fs', 'path', 'child_process', 'os', 'worker_threads', 'typescript'].includes(specifier),
      );
      expect(nodeOnly).toEqual([]);
      expect(
        specifiers.filter((specifier) => specifier === 'openai' || specifier.startsWith('openai/')),
      ).toEqual([]);
    });
  }

  it('does import the runtime dependencies it declares (the scan works)', () => {
    expect([...specifiersOf('index.js')]).toEqual(
      expect.arrayContaining(['eventemitter3', '@cfworker/json-schema']),
    );
  });
});
