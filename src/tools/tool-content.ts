import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { contentProblem } from '../model/content-parts.js';
import type { ContentPart } from '../model/messages.js';

/** The mark {@link toolContent} puts on what it returns; shared by every copy of the package. */
const toolContentBrand = Symbol.for('tool-orchestrator.toolContent');

/** Content parts a tool returns as its result: made by {@link toolContent}, sent to the model as they are. */
export interface ToolContent {
  readonly [toolContentBrand]: true;
  readonly parts: readonly ContentPart[];
}

/**
 * Marks what a tool's `execute` returns as content parts (text, images, files) for the model, not
 * a value to send as JSON: the tool message then holds the parts. Only a value made here is taken
 * as parts; any other object a tool returns is sent as its JSON, whatever its shape.
 *
 * @throws {InvalidArgumentError} when a part is malformed, naming it.
 * @example
 * execute: async ({ url }) => toolContent([
 *   { type: 'text', text: `Screenshot of ${url}` },
 *   { type: 'image', data: await screenshot(url), mediaType: 'image/png' },
 * ]),
 */
export function toolContent(parts: readonly ContentPart[]): ToolContent {
  const problem =
    typeof parts === 'string' ? { path: '', expected: 'an array of content parts' } : contentProblem(parts);
  if (problem !== undefined) {
    const index = problem.path === '' ? undefined : Number(problem.path.slice(1, -1));
    throw new InvalidArgumentError({
      argument: `toolContent(parts)${problem.path}`,
      // The bad part alone: the others may be megabytes of base64.
      value: index === undefined ? parts : parts[index],
      message: `must be ${problem.expected}.`,
    });
  }
  return Object.freeze({ [toolContentBrand]: true as const, parts: Object.freeze([...parts]) });
}

/** Whether a tool's return value was made by {@link toolContent}. */
export function isToolContent(value: unknown): value is ToolContent {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[toolContentBrand] === true
  );
}
