import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type {
  GuardrailOptions,
  InputGuardrail,
  OutputGuardrail,
  ToolInputGuardrail,
  ToolOutputGuardrail,
} from './guardrail-options.js';

/** A run's guardrails: the orchestrator's, then the run's own, by kind. */
export interface ResolvedGuardrails {
  readonly input: readonly InputGuardrail<object>[];
  readonly output: readonly OutputGuardrail<object>[];
  readonly toolInput: readonly ToolInputGuardrail<object>[];
  readonly toolOutput: readonly ToolOutputGuardrail<object>[];
}

const kinds = ['input', 'output', 'toolInput', 'toolOutput'] as const;

/**
 * The orchestrator's guardrails followed by the run's own, kind by kind: a run adds guardrails, it
 * cannot drop the orchestrator's. `undefined` when there are none, so a run without guardrails
 * checks nothing on its way.
 */
export function resolveGuardrails(
  orchestrator: GuardrailOptions<object> | undefined,
  run: GuardrailOptions<object> | undefined,
): ResolvedGuardrails | undefined {
  if (orchestrator === undefined && run === undefined) return undefined;
  const resolved: ResolvedGuardrails = {
    input: [...(orchestrator?.input ?? []), ...(run?.input ?? [])],
    output: [...(orchestrator?.output ?? []), ...(run?.output ?? [])],
    toolInput: [...(orchestrator?.toolInput ?? []), ...(run?.toolInput ?? [])],
    toolOutput: [...(orchestrator?.toolOutput ?? []), ...(run?.toolOutput ?? [])],
  };
  return kinds.some((kind) => resolved[kind].length > 0) ? resolved : undefined;
}

/**
 * Checks a `guardrails` option: an object of lists, each guardrail with a `name` and a `check`.
 *
 * @throws {InvalidArgumentError} naming the bad value, e.g. `guardrails.input[0].check`.
 */
export function checkGuardrails(argument: string, guardrails: unknown): void {
  if (guardrails === undefined) return;
  if (typeof guardrails !== 'object' || guardrails === null || Array.isArray(guardrails)) {
    throw new InvalidArgumentError({
      argument,
      value: guardrails,
      message: 'must be an object of guardrail lists, e.g. { input: [{ name, check }] }, or left out.',
    });
  }
  for (const key of Object.keys(guardrails)) {
    if (!(kinds as readonly string[]).includes(key)) {
      throw new InvalidArgumentError({
        argument: `${argument}.${key}`,
        value: (guardrails as Record<string, unknown>)[key],
        message: `is not a kind of guardrail; use ${kinds.map((kind) => `'${kind}'`).join(', ')}.`,
      });
    }
  }
  for (const kind of kinds) {
    const list: unknown = (guardrails as Record<string, unknown>)[kind];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      throw new InvalidArgumentError({
        argument: `${argument}.${kind}`,
        value: list,
        message: 'must be an array of guardrails ({ name, check }), or left out.',
      });
    }
    list.forEach((guardrail: unknown, index) => checkGuardrail(`${argument}.${kind}[${index}]`, guardrail));
  }
}

function checkGuardrail(argument: string, guardrail: unknown): void {
  if (typeof guardrail !== 'object' || guardrail === null) {
    throw new InvalidArgumentError({
      argument,
      value: guardrail,
      message: 'must be a guardrail: an object with a name and a check(info) function.',
    });
  }
  const { name, check, runInParallel } = guardrail as Record<string, unknown>;
  if (typeof name !== 'string' || name === '') {
    throw new InvalidArgumentError({
      argument: `${argument}.name`,
      value: name,
      message: 'must be a non-empty string naming the guardrail in traces and errors.',
    });
  }
  if (typeof check !== 'function') {
    throw new InvalidArgumentError({
      argument: `${argument}.check`,
      value: check,
      message: `must be a function returning a verdict, e.g. () => ({ type: 'pass' }) (guardrail "${name}").`,
    });
  }
  if (runInParallel !== undefined && typeof runInParallel !== 'boolean') {
    throw new InvalidArgumentError({
      argument: `${argument}.runInParallel`,
      value: runInParallel,
      message: 'must be true or false, or left out.',
    });
  }
}
