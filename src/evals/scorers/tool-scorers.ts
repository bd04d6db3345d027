import type { EvalToolCall } from '../eval-case.js';
import type { Scorer } from '../scorer.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { describeValue } from '../../errors/describe-value.js';

/** Options of {@link toolWasCalled}. */
export interface ToolWasCalledOptions {
  /**
   * The arguments a call must have: an object matched partially (each key given must match, at any
   * depth; arrays match element by element and must have the same length), or a predicate.
   */
  readonly arguments?: Readonly<Record<string, unknown>> | ((args: unknown) => boolean);
  /** How many matching calls there must be; without it, at least one. */
  readonly times?: number;
  /** @default `tool_was_called:<toolName>` */
  readonly name?: string;
}

/** Scores 1 when the run called the tool `toolName` (with matching arguments, `times` times when given), else 0. */
export function toolWasCalled(toolName: string, options: ToolWasCalledOptions = {}): Scorer {
  checkToolName(toolName);
  const { arguments: wanted, times } = options;
  if (times !== undefined && !(Number.isInteger(times) && times >= 0)) {
    throw new InvalidArgumentError({
      argument: 'times',
      value: times,
      message: 'must be a non-negative integer',
    });
  }
  const matches = (args: unknown): boolean =>
    wanted === undefined
      ? true
      : typeof wanted === 'function'
        ? wanted(args)
        : matchesPartially(args, wanted);
  return {
    name: options.name ?? `tool_was_called:${toolName}`,
    score({ toolCalls }) {
      const calls = toolCalls.filter((call) => call.name === toolName);
      const matching = calls.filter((call) => matches(call.arguments)).length;
      const ok = times === undefined ? matching > 0 : matching === times;
      const reason = [
        `${toolName} was called ${calls.length} times`,
        wanted === undefined ? '' : `, ${matching} with matching arguments`,
        times === undefined ? '' : ` (expected ${times})`,
        ok || calls.length === 0
          ? ''
          : `; its arguments: ${describeValue(
              calls.map((call) => call.arguments),
              300,
            )}`,
      ].join('');
      return { score: ok ? 1 : 0, reason };
    },
  };
}

/** Scores 1 when the run never called the tool `toolName`, else 0. */
export function toolWasNotCalled(toolName: string, options: { readonly name?: string } = {}): Scorer {
  checkToolName(toolName);
  return {
    name: options.name ?? `tool_was_not_called:${toolName}`,
    score({ toolCalls }) {
      const count = toolCalls.filter((call) => call.name === toolName).length;
      return count === 0
        ? { score: 1, reason: `${toolName} was not called` }
        : { score: 0, reason: `${toolName} was called ${count} times` };
    },
  };
}

/** Options of {@link trajectory}. */
export interface TrajectoryOptions {
  /**
   * `'exact'`: the calls are the expected ones, in order, nothing else; the score is the share of
   * positions that agree, over the longer of the two lists. `'in-order'`: the expected calls come in
   * this order, others may come between; the score is the longest common subsequence over the
   * expected count. `'set'`: each expected tool was called, in any order, others allowed; the score
   * is the share of expected names called. @default 'in-order'
   */
  readonly order?: 'exact' | 'in-order' | 'set';
  /** @default 'trajectory' */
  readonly name?: string;
}

/** Scores how closely the run's tool calls, by name, follow `expectedNames`; it passes at 1 (see `order`). */
export function trajectory(expectedNames: readonly string[], options: TrajectoryOptions = {}): Scorer {
  if (!Array.isArray(expectedNames) || !expectedNames.every((name) => typeof name === 'string')) {
    throw new InvalidArgumentError({
      argument: 'expectedNames',
      value: expectedNames,
      message: 'must be an array of tool names',
    });
  }
  const order = options.order ?? 'in-order';
  if (order !== 'exact' && order !== 'in-order' && order !== 'set') {
    throw new InvalidArgumentError({
      argument: 'order',
      value: order,
      message: "must be 'exact', 'in-order' or 'set'",
    });
  }
  return {
    name: options.name ?? 'trajectory',
    score({ toolCalls }) {
      const actual = toolCalls.map((call: EvalToolCall) => call.name);
      const score = trajectoryScore(expectedNames, actual, order);
      return {
        score,
        reason: `expected ${describeValue(expectedNames, 200)} (${order}), called ${describeValue(actual, 200)}`,
      };
    },
  };
}

function trajectoryScore(
  expected: readonly string[],
  actual: readonly string[],
  order: 'exact' | 'in-order' | 'set',
): number {
  if (order === 'exact') {
    const longest = Math.max(expected.length, actual.length);
    if (longest === 0) return 1;
    return expected.filter((name, index) => actual[index] === name).length / longest;
  }
  if (expected.length === 0) return 1;
  if (order === 'set') {
    const wanted = new Set(expected);
    const called = new Set(actual);
    return [...wanted].filter((name) => called.has(name)).length / wanted.size;
  }
  return longestCommonSubsequence(expected, actual) / expected.length;
}

function longestCommonSubsequence(first: readonly string[], second: readonly string[]): number {
  let previous = new Array<number>(second.length + 1).fill(0);
  for (const item of first) {
    const row = [0];
    second.forEach((other, index) => {
      row.push(item === other ? previous[index]! + 1 : Math.max(previous[index + 1]!, row[index]!));
    });
    previous = row;
  }
  return previous[second.length]!;
}

/** True when `actual` has every key of `wanted` with a matching value, at any depth. */
function matchesPartially(actual: unknown, wanted: unknown): boolean {
  if (Array.isArray(wanted)) {
    return (
      Array.isArray(actual) &&
      actual.length === wanted.length &&
      wanted.every((item, index) => matchesPartially(actual[index], item))
    );
  }
  if (typeof wanted === 'object' && wanted !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(wanted).every(
      ([key, value]) =>
        Object.hasOwn(actual, key) && matchesPartially((actual as Record<string, unknown>)[key], value),
    );
  }
  return Object.is(actual, wanted);
}

function checkToolName(toolName: string): void {
  if (typeof toolName !== 'string' || toolName === '') {
    throw new InvalidArgumentError({
      argument: 'toolName',
      value: toolName,
      message: 'must be the name of a tool',
    });
  }
}
