import type { Scorer } from '../scorer.js';
import { compileSchema, issueText } from '../../tools/schema.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { describeValue } from '../../errors/describe-value.js';

/** Options of {@link answerEquals}. */
export interface AnswerEqualsOptions {
  /** Compares without regard to letter case. @default false */
  readonly ignoreCase?: boolean;
  /** @default 'answer_equals' */
  readonly name?: string;
}

/**
 * Scores 1 when the final answer equals `expected` (both trimmed of surrounding whitespace),
 * else 0. Without `expected`, the case's `expected.answer`, or `expected` itself when it is a
 * string; a case with neither scores 0.
 */
export function answerEquals(expected?: string, options: AnswerEqualsOptions = {}): Scorer {
  const normalize = (text: string): string =>
    options.ignoreCase === true ? text.trim().toLowerCase() : text.trim();
  return {
    name: options.name ?? 'answer_equals',
    score({ content, expected: caseExpected }) {
      const wanted = expected ?? expectedAnswer(caseExpected);
      if (wanted === undefined) {
        return {
          score: 0,
          reason:
            'the case has no expected answer: give it expected: { answer } or pass one to answerEquals()',
        };
      }
      return normalize(content) === normalize(wanted)
        ? { score: 1, reason: 'the answer equals the expected one' }
        : { score: 0, reason: `expected ${describeValue(wanted, 200)}, got ${describeValue(content, 200)}` };
    },
  };
}

function expectedAnswer(expected: unknown): string | undefined {
  if (typeof expected === 'string') return expected;
  const answer =
    typeof expected === 'object' && expected !== null ? (expected as { answer?: unknown }).answer : undefined;
  return typeof answer === 'string' ? answer : undefined;
}

/** Scores 1 when the final answer matches `pattern` (a `g` or `y` flag is ignored), else 0. */
export function answerMatches(pattern: RegExp, options: { readonly name?: string } = {}): Scorer {
  if (!(pattern instanceof RegExp)) {
    throw new InvalidArgumentError({
      argument: 'pattern',
      value: pattern,
      message: 'must be a RegExp, e.g. /paris/i',
    });
  }
  // Without `g` and `y`, `test` keeps no state between cases.
  const stateless = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
  return {
    name: options.name ?? 'answer_matches',
    score: ({ content }) =>
      stateless.test(content)
        ? { score: 1, reason: `the answer matches ${String(stateless)}` }
        : {
            score: 0,
            reason: `the answer ${describeValue(content, 200)} does not match ${String(stateless)}`,
          },
  };
}

/**
 * Scores 1 when the case's typed output, or else its final answer read as JSON, satisfies
 * `schema` (zod 3, zod 4 or a JSON Schema object), else 0 with the schema's complaints.
 */
export function outputSatisfies(schema: unknown, options: { readonly name?: string } = {}): Scorer {
  if (typeof schema !== 'object' || schema === null) {
    throw new InvalidArgumentError({
      argument: 'schema',
      value: schema,
      message: 'must be a zod schema or a JSON Schema object',
    });
  }
  const compiled = compileSchema(schema);
  return {
    name: options.name ?? 'output_satisfies',
    score({ output, content }) {
      let value = output;
      if (value === undefined) {
        try {
          value = JSON.parse(content) as unknown;
        } catch {
          return {
            score: 0,
            reason: `the case has no typed output and its answer is not JSON: ${describeValue(content, 200)}`,
          };
        }
      }
      const outcome = compiled.validate(value);
      return outcome.success
        ? { score: 1, reason: 'the output satisfies the schema' }
        : { score: 0, reason: `the output misses the schema: ${outcome.issues.map(issueText).join('; ')}` };
    },
  };
}
