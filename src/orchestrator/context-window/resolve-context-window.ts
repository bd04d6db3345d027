import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { ContextWindowOptions, ResolvedContextWindow } from './context-window-options.js';
import { defaultCountTokens } from './estimate-tokens.js';

const strategies = new Set(['mask_observations', 'summarize']);

/**
 * Checks the `contextWindow` option and applies its defaults; `undefined` when it is off. `true`
 * means every default, the window taken from the adapter.
 *
 * @throws {InvalidArgumentError} naming the bad field, or when no window is given and the adapter knows none.
 */
export function resolveContextWindow(
  argument: string,
  value: ContextWindowOptions | boolean | undefined,
  adapter: ModelAdapter,
): ResolvedContextWindow | undefined {
  if (value === undefined || value === false) return undefined;
  const options: ContextWindowOptions = value === true ? {} : value;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: 'must be true, false, or { maxTokens, reserveOutputTokens?, strategy?, keepRecent? }.',
    });
  }
  const known = adapter.contextWindowTokens;
  const maxTokens = options.maxTokens ?? (isPositiveInteger(known) ? known : undefined);
  if (maxTokens === undefined) {
    throw new InvalidArgumentError({
      argument: `${argument}.maxTokens`,
      value: options.maxTokens,
      message: `is required: the ${adapter.provider ?? 'given'} adapter does not know its model's context window. Pass the window in tokens, e.g. { maxTokens: 128_000 }.`,
    });
  }
  checkInteger(`${argument}.maxTokens`, maxTokens, 256, 'an integer of at least 256 tokens');
  const reserve = options.reserveOutputTokens ?? Math.min(8192, Math.floor(maxTokens / 4));
  checkInteger(`${argument}.reserveOutputTokens`, reserve, 0, 'a non-negative integer');
  if (reserve > maxTokens / 2) {
    throw new InvalidArgumentError({
      argument: `${argument}.reserveOutputTokens`,
      value: reserve,
      message: `must be at most half of maxTokens (${maxTokens}), so the messages keep room.`,
    });
  }
  const strategy = options.strategy ?? 'mask_observations';
  if (typeof strategy !== 'function' && !strategies.has(strategy)) {
    throw new InvalidArgumentError({
      argument: `${argument}.strategy`,
      value: strategy,
      message:
        "must be 'mask_observations', 'summarize' or a function (messages, { tokens, limit }) => messages.",
    });
  }
  const keepRecent = options.keepRecent ?? 10;
  checkInteger(`${argument}.keepRecent`, keepRecent, 0, 'a non-negative integer');
  const lowWaterMark = options.lowWaterMark ?? 0.5;
  if (typeof lowWaterMark !== 'number' || !(lowWaterMark > 0 && lowWaterMark <= 1)) {
    throw new InvalidArgumentError({
      argument: `${argument}.lowWaterMark`,
      value: lowWaterMark,
      message:
        'must be a number above 0 and at most 1 (a fraction of the limit; 0.5 keeps the prompt cache warm).',
    });
  }
  const countTokens = options.countTokens;
  if (countTokens !== undefined && typeof countTokens !== 'function') {
    throw new InvalidArgumentError({
      argument: `${argument}.countTokens`,
      value: countTokens,
      message: 'must be a function (text) => number of tokens, or left out for the built-in estimate.',
    });
  }
  return {
    maxTokens,
    reserveOutputTokens: reserve,
    strategy,
    keepRecent,
    lowWaterMark,
    countTokens:
      countTokens === undefined ? defaultCountTokens : checkedCounter(`${argument}.countTokens`, countTokens),
  };
}

/** A user counter whose every answer is checked, so a bad one fails with its value named. */
function checkedCounter(argument: string, countTokens: (text: string) => number): (text: string) => number {
  return (text) => {
    const tokens = countTokens(text);
    if (typeof tokens !== 'number' || !Number.isFinite(tokens) || tokens < 0) {
      throw new InvalidArgumentError({
        argument: `${argument}()`,
        value: tokens,
        message: 'must return a finite number of tokens, 0 or more.',
      });
    }
    return tokens;
  };
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function checkInteger(argument: string, value: unknown, minimum: number, what: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < minimum) {
    throw new InvalidArgumentError({ argument, value, message: `must be ${what}.` });
  }
}
