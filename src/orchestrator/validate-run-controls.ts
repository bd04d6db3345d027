import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import type { RunBudget } from './budget.js';
import type { LoopGuardOptions } from './loop-guard.js';

/**
 * Checks of the run controls that can be set on the orchestrator and per run (`toolChoice`,
 * `loopGuard`, `budget`, the hooks), so a mistake fails with a message naming the value.
 */

export function checkFunction(argument: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new InvalidArgumentError({ argument, value, message: 'must be a function, or left out.' });
  }
}

export function checkToolChoice(argument: string, value: unknown, registry: ToolRegistry): void {
  if (value === undefined || value === 'auto' || value === 'none' || value === 'required') return;
  const name = (value as { function?: { name?: unknown } } | null)?.function?.name;
  const names = Object.keys(registry);
  if ((value as { type?: unknown } | null)?.type === 'function' && typeof name === 'string') {
    if (Object.hasOwn(registry, name)) return;
    throw new InvalidArgumentError({
      argument,
      value,
      message: `names the tool "${name}", which is not in the registry (${names.length === 0 ? 'no tools' : names.join(', ')}).`,
    });
  }
  throw new InvalidArgumentError({
    argument,
    value,
    message: `must be 'auto', 'none', 'required' or { type: 'function', function: { name } } naming a registered tool.`,
  });
}

export function checkLoopGuard(argument: string, value: LoopGuardOptions | boolean | undefined): void {
  if (value === undefined || typeof value === 'boolean') return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: 'must be false (off), true (the defaults), or { identicalCalls, repeatedErrors, action }.',
    });
  }
  checkInteger(
    `${argument}.identicalCalls`,
    value.identicalCalls,
    2,
    'at least 2 (the second identical call in a row is often a fair retry)',
  );
  checkInteger(`${argument}.repeatedErrors`, value.repeatedErrors, 1, 'at least 1');
  const action: unknown = value.action;
  if (action !== undefined && action !== 'block' && action !== 'warn' && action !== 'stop') {
    throw new InvalidArgumentError({
      argument: `${argument}.action`,
      value: action,
      message: "must be 'block', 'warn' or 'stop'.",
    });
  }
}

export function checkBudget(argument: string, value: RunBudget | undefined): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message:
        'must be an object such as { maxTotalTokens, maxToolCalls, maxDurationMs, maxCostUsd, pricing }.',
    });
  }
  checkPositive(`${argument}.maxTotalTokens`, value.maxTotalTokens);
  checkInteger(
    `${argument}.maxToolCalls`,
    value.maxToolCalls,
    0,
    'a whole number of at least 0 (0 runs no tools)',
  );
  checkPositive(`${argument}.maxDurationMs`, value.maxDurationMs);
  checkPositive(`${argument}.maxCostUsd`, value.maxCostUsd);
  const pricing: unknown = value.pricing;
  if (pricing === undefined) return;
  if (typeof pricing !== 'object' || pricing === null) {
    throw new InvalidArgumentError({
      argument: `${argument}.pricing`,
      value: pricing,
      message:
        'must be { inputPerMillion, outputPerMillion, cachedInputPerMillion?, cacheWriteInputPerMillion? } in USD per million tokens.',
    });
  }
  const prices = pricing as Record<string, unknown>;
  for (const field of [
    'inputPerMillion',
    'outputPerMillion',
    'cachedInputPerMillion',
    'cacheWriteInputPerMillion',
  ]) {
    const price = prices[field];
    if (price === undefined && (field === 'cachedInputPerMillion' || field === 'cacheWriteInputPerMillion'))
      continue;
    if (typeof price !== 'number' || !Number.isFinite(price) || price < 0) {
      throw new InvalidArgumentError({
        argument: `${argument}.pricing.${field}`,
        value: price,
        message: 'must be a price of at least 0, in USD per million tokens.',
      });
    }
  }
}

export function checkInteger(argument: string, value: unknown, minimum: number, expected: string): void {
  if (value !== undefined && !(Number.isInteger(value) && (value as number) >= minimum)) {
    throw new InvalidArgumentError({ argument, value, message: `must be an integer, ${expected}.` });
  }
}

function checkPositive(argument: string, value: unknown): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
    throw new InvalidArgumentError({ argument, value, message: 'must be a positive number, or left out.' });
  }
}
