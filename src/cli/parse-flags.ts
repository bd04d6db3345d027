import { parseArgs } from 'node:util';
import { UsageError } from './cli-io.js';

/** One flag of a command. `-h, --help` is added to every command. */
export interface FlagDefinition {
  readonly type: 'string' | 'boolean';
  /** A one-letter alias, e.g. `'h'` for `-h`. */
  readonly short?: string;
  /** The value's name in messages, e.g. `'DIR'` for `--repo DIR`. @default 'VALUE' */
  readonly placeholder?: string;
  readonly default?: string | boolean;
}

/** What {@link parseFlags} returns for `Flags`: booleans, and strings (`undefined` when absent without a default). */
export type FlagValues<Flags extends Record<string, FlagDefinition>> = {
  readonly [Name in keyof Flags]: Flags[Name]['type'] extends 'boolean'
    ? boolean
    : Flags[Name]['default'] extends string
      ? string
      : string | undefined;
} & { readonly help: boolean };

/**
 * Parses a command's flags with Node's `util.parseArgs`, then checks its tokens so every mistake reads
 * the same way and names the flag: `unknown flag --verbose for "tool"; see tool-orchestrator tool --help`.
 *
 * @param command the command as typed after `tool-orchestrator`, e.g. `'tool'` or `'trace view'`.
 * @throws {UsageError} `unknown_flag` or `missing_flag_value`.
 */
export function parseFlags<const Flags extends Record<string, FlagDefinition>>(
  command: string,
  flags: Flags,
  argv: readonly string[],
): { readonly values: FlagValues<Flags>; readonly positionals: string[] } {
  const definitions: Record<string, FlagDefinition> = { ...flags, help: { type: 'boolean', short: 'h' } };
  const options = Object.fromEntries(
    Object.entries(definitions).map(([name, definition]) => [
      name,
      {
        type: definition.type,
        ...(definition.short === undefined ? {} : { short: definition.short }),
      },
    ]),
  );
  const { tokens, positionals } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const see = `see tool-orchestrator ${command} --help`;
  const values: Record<string, string | boolean | undefined> = {};
  for (const [name, definition] of Object.entries(definitions)) {
    values[name] = definition.default ?? (definition.type === 'boolean' ? false : undefined);
  }
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const definition = Object.hasOwn(definitions, token.name) ? definitions[token.name] : undefined;
    if (definition === undefined) {
      throw new UsageError(`unknown flag ${token.rawName} for "${command}"; ${see}`, {
        code: 'unknown_flag',
        helpHint: false,
      });
    }
    const example = `${flagName(token.name)} ${definition.placeholder ?? 'VALUE'}`;
    if (definition.type === 'boolean') {
      if (token.value !== undefined) {
        throw new UsageError(
          `flag ${flagName(token.name)} for "${command}" takes no value (got ${token.rawName}=${token.value}); ${see}`,
          { code: 'invalid_flag_value', helpHint: false },
        );
      }
      values[token.name] = true;
      continue;
    }
    // `--repo --json`: parseArgs takes `--json` as the value; a flag there means the value is missing.
    // (`--repo=--odd-name` still passes a value that starts with dashes.)
    const value = token.value;
    const swallowedFlag =
      value !== undefined && !token.inlineValue && isFlagLike(value, definitions) ? value : undefined;
    if (value === undefined || swallowedFlag !== undefined) {
      throw new UsageError(
        `flag ${flagName(token.name)} for "${command}" needs a value, e.g. ${example}${swallowedFlag === undefined ? '' : ` (got the flag ${swallowedFlag} instead)`}; ${see}`,
        { code: 'missing_flag_value', helpHint: false },
      );
    }
    values[token.name] = value;
  }
  return { values: values as FlagValues<Flags>, positionals };
}

function flagName(name: string): string {
  return `--${name}`;
}

function isFlagLike(text: string, definitions: Record<string, FlagDefinition>): boolean {
  if (text.startsWith('--')) return true;
  return /^-[a-zA-Z]$/.test(text) && Object.values(definitions).some((flag) => flag.short === text[1]);
}
