import { describe, expect, it } from 'vitest';
import * as root from '../../src/index.js';
import { ToolOrchestratorError } from '../../src/index.js';
import * as testing from '../../src/testing/index.js';
import * as openai from '../../src/adapters/openai/index.js';
import * as deepseek from '../../src/adapters/deepseek/index.js';
import * as anthropic from '../../src/adapters/anthropic/index.js';
import * as gemini from '../../src/adapters/gemini/index.js';
import * as explore from '../../src/explore/index.js';
import * as mcp from '../../src/mcp.js';
import * as otel from '../../src/otel.js';
import * as trace from '../../src/trace.js';
import * as postgres from '../../src/postgres.js';
import * as bullmq from '../../src/bullmq.js';
import * as replay from '../../src/replay.js';
import * as evals from '../../src/evals.js';

/** Every error class any entry exports, once, by name. */
const errorClasses = [
  ...new Map(
    [
      root,
      testing,
      openai,
      deepseek,
      anthropic,
      gemini,
      explore,
      mcp,
      otel,
      trace,
      postgres,
      bullmq,
      replay,
      evals,
    ]
      .flatMap((entry) => Object.entries(entry) as [string, unknown][])
      .filter(
        (entry): entry is [string, new (...args: never[]) => Error] =>
          typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error,
      ),
  ),
];

describe('every exported error', () => {
  it('is found (the scan works)', () => {
    expect(errorClasses.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'ToolOrchestratorError',
        'InvalidArgumentError',
        'MaxTurnsExceededError',
        'ModelProviderError',
        'ScriptExhaustedError',
        'SandboxError',
        'McpConnectionError',
        'TraceFileError',
        'RunJobFailedError',
        'ReplayMismatchError',
        'EvalReportError',
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
