import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import { ToolOrchestratorError } from '../../src/index.js';

const errorClasses = (Object.entries(root) as [string, unknown][]).filter(
  (entry): entry is [string, new (...args: never[]) => Error] =>
    typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error,
);

describe('every exported error', () => {
  it('is found (the scan works)', () => {
    expect(errorClasses.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'ToolOrchestratorError',
        'InvalidArgumentError',
        'MaxTurnsExceededError',
        'ModelProviderError',
      ]),
    );
  });

  for (const [name, ErrorClass] of errorClasses) {
    it(`${name} extends ToolOrchestratorError and is branded`, () => {
      expect(
        ErrorClass === (ToolOrchestratorError as unknown) ||
          ErrorClass.prototype instanceof ToolOrchestratorError,
      ).toBe(true);
    });
  }

  it('carries its class name, a code and the brand', () => {
    const error = new root.InvalidArgumentError({
      argument: 'maxTurns',
      value: -1,
      message: 'must be at least 1.',
    });
    expect(error.name).toBe('InvalidArgumentError');
    expect(error.code).toBe('invalid_argument');
    expect(error.message).toBe('Invalid maxTurns (-1): must be at least 1.');
    expect(ToolOrchestratorError.isInstance(error)).toBe(true);
    expect(ToolOrchestratorError.isInstance(new Error('x'))).toBe(false);
  });
});
