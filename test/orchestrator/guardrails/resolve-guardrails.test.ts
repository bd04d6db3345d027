import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, ToolOrchestrator } from '../../../src/index.js';
import type { GuardrailOptions } from '../../../src/index.js';
import { ScriptedAdapter } from '../../../src/testing/index.js';

const adapter = () => new ScriptedAdapter([ScriptedAdapter.text('ok')]);

function thrown(action: () => unknown): InvalidArgumentError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

const cases: [string, unknown, string, RegExp][] = [
  [
    'a list that is not an array',
    { input: { name: 'x', check: () => ({ type: 'pass' }) } },
    'guardrails.input',
    /must be an array/,
  ],
  [
    'a guardrail without a name',
    { output: [{ check: () => ({ type: 'pass' }) }] },
    'guardrails.output[0].name',
    /non-empty string/,
  ],
  [
    'a guardrail without a check',
    { toolInput: [{ name: 'paths' }] },
    'guardrails.toolInput[0].check',
    /must be a function.*"paths"/,
  ],
  [
    'a guardrail that is not an object',
    { toolOutput: [null] },
    'guardrails.toolOutput[0]',
    /must be a guardrail/,
  ],
  [
    'an unknown kind',
    { tool_input: [] },
    'guardrails.tool_input',
    /'input', 'output', 'toolInput', 'toolOutput'/,
  ],
  [
    'runInParallel that is not a boolean',
    { input: [{ name: 'x', check: () => ({ type: 'pass' }), runInParallel: 'yes' }] },
    'guardrails.input[0].runInParallel',
    /true or false/,
  ],
  ['guardrails that are not an object', [], 'guardrails', /object of guardrail lists/],
];

describe('guardrails validation', () => {
  it.each(cases)('the constructor refuses %s, naming it', (_label, guardrails, argument, message) => {
    const error = thrown(
      () => new ToolOrchestrator(adapter(), {}, { guardrails: guardrails as GuardrailOptions }),
    );
    expect(error.argument).toBe(argument);
    expect(error.message).toMatch(message);
  });

  it.each(cases)('run() refuses %s in its options, naming it', (_label, guardrails, argument, message) => {
    const orchestrator = new ToolOrchestrator(adapter(), {});
    const error = thrown(() =>
      orchestrator.stream([], undefined, { guardrails: guardrails as GuardrailOptions }),
    );
    expect(error.argument).toBe(`runOptions.${argument}`);
    expect(error.message).toMatch(message);
  });
});
