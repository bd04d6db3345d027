import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';
import { specifiersOf } from '../support/bundle-imports.js';

const dist = new URL('../../dist/', import.meta.url);

/** Whether either build of `entry` loads `specifier` (the CLI is built as ESM only). */
const loads = (entry: string, specifier: string): boolean =>
  ['js', 'cjs']
    .filter((extension) => existsSync(new URL(`${entry}.${extension}`, dist)))
    .some((extension) => specifiersOf(`${entry}.${extension}`).has(specifier));

describe('optional peer dependencies load only where they are used', () => {
  it('@opentelemetry/api is loaded by tool-orchestrator/otel and by no other entry', () => {
    expect(loads('otel', '@opentelemetry/api')).toBe(true);
    const others = Object.keys(entries).filter(
      (entry) => entry !== 'otel' && loads(entry, '@opentelemetry/api'),
    );
    expect(others).toEqual([]);
    expect(loads('cli', '@opentelemetry/api')).toBe(false);
  });

  it('bullmq and ioredis are loaded by tool-orchestrator/bullmq and by no other entry', () => {
    for (const peer of ['bullmq', 'ioredis']) {
      expect(loads('bullmq', peer), peer).toBe(true);
      const others = Object.keys(entries).filter((entry) => entry !== 'bullmq' && loads(entry, peer));
      expect(others, peer).toEqual([]);
      expect(loads('cli', peer), peer).toBe(false);
    }
  });

  it('the trace entry loads no provider SDK and no OpenTelemetry', () => {
    const specifiers = [...specifiersOf('trace.js')];
    expect(
      specifiers.filter((specifier) => specifier.startsWith('@opentelemetry/') || specifier === 'openai'),
    ).toEqual([]);
    // The scan works: the bundle's own Node imports are found.
    expect(specifiers).toEqual(expect.arrayContaining(['fs']));
  });
});
