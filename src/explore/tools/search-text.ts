import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import { resolveCodeToolLimits } from '../code-tool-limits.js';
import type { CodeToolFactoryOptions } from '../code-tool-limits.js';
import { formatBytes } from '../sandbox/sandbox.js';
import { runSearch, SearchStoppedError } from './run-search.js';
import type { Latin1Safety, SearchOutcome } from './run-search.js';
import { truncateOutput } from './truncate-output.js';
import { walkStopped } from './walk-stopped.js';
import { SearchListingCache } from './search-listing-cache.js';
import { findRipgrepCandidates, isRipgrepAvailable } from './ripgrep-candidates.js';
import { privateKeyKeyword } from '../sandbox/private-key-blocks.js';
import { defaultExcludedNames } from '../sandbox/sandbox-defaults.js';

/** How many matched lines `search_text` returns when the model does not say. */
export const defaultSearchMaxResults = 100;

const parameters = z.object({
  pattern: z
    .string()
    .min(1)
    .describe('What to look for: a JavaScript regular expression, or plain text with regex=false.'),
  path: z
    .string()
    .optional()
    .describe('Directory (or file) to search, relative to the repository root. Default ".".'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "*.ts" or "src/**/*.js".'),
  regex: z.boolean().optional().describe('Treat pattern as a regular expression. Default true.'),
  case_sensitive: z.boolean().optional().describe('Match case exactly. Default false.'),
  max_results: z
    .number()
    .int()
    .min(1)
    .max(2000)
    .optional()
    .describe('Most matched lines to return. Default 100.'),
});

/**
 * Creates the `search_text` tool: a grep over the visible files, answering
 * `path:line: text` lines; over the cap, per-file counts and a request to narrow. Matching
 * runs in worker threads with a time budget, so a catastrophic regex cannot hang the process.
 * When ripgrep is available (see `CodeToolFactoryOptions.ripgrep`) and every match must contain
 * a plain string, ripgrep first picks the files holding that string among the sandbox's visible
 * files, and the workers read only those: the answer is the same either way. The file listing
 * is kept between searches while no directory or `.gitignore` in it has changed.
 */
export function createSearchTextTool(options: CodeToolFactoryOptions) {
  const { sandbox } = options;
  const limits = resolveCodeToolLimits(options);
  const listings = new SearchListingCache(sandbox);
  const ripgrep = options.ripgrep ?? false;
  const ripgrepCommand = ripgrep === false ? null : ripgrep === true ? 'rg' : ripgrep;
  return defineTool({
    name: 'search_text',
    description:
      'Search file contents like grep. Returns "path:line: text" for each matching line, in file order. ' +
      'The pattern is a JavaScript regular expression (case-insensitive by default); set regex=false for plain text. ' +
      'Use glob (e.g. "*.ts") or path to narrow the search.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async (input, context) => {
      const flags = `gm${input.case_sensitive === true ? '' : 'i'}`;
      const source = input.regex === false ? escapeRegExp(input.pattern) : input.pattern;
      try {
        new RegExp(source, flags);
      } catch (error) {
        const inline = /^\(\?[a-z]+\)/.test(source)
          ? ' Inline flags like (?i) are not supported; use case_sensitive.'
          : '';
        throw new Error(
          `Invalid regular expression ${JSON.stringify(input.pattern)}: ${(error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '')}.${inline} ` +
            'Fix the pattern, or pass regex=false to search for it as plain text.',
          { cause: error },
        );
      }
      const startedMs = Date.now();
      // Not awaited: the search workers boot while the tree is walked.
      const listing = listings.list({
        path: input.path ?? '.',
        ...(input.glob === undefined ? {} : { pattern: input.glob }),
        ...(context?.signal === undefined ? {} : { signal: context.signal }),
      });
      // Awaited later, possibly after other awaits: its failure is handled there.
      listing.catch(() => undefined);
      const maxResults = input.max_results ?? defaultSearchMaxResults;
      const literals = requiredLiterals(source);
      let outcome: SearchOutcome;
      try {
        let candidates: Set<number> | undefined;
        const [longest] = literals;
        if (ripgrepCommand !== null && longest !== undefined && (await isRipgrepAvailable(ripgrepCommand))) {
          const files = await listing;
          // A single file (no directory walked) is read directly.
          if (files.directories.length > 0)
            candidates =
              (await findRipgrepCandidates({
                command: ripgrepCommand,
                root: sandbox.root,
                start: files.directories[0] === '' ? '.' : (files.directories[0] ?? '.'),
                files,
                excludedNames: defaultExcludedNames,
                // A private key block's redaction marker is text the file's bytes do not hold.
                literals: [longest, privateKeyKeyword],
                ignoreCase: flags.includes('i'),
                timeoutMs: limits.searchTimeoutMs,
                signal: context?.signal,
              })) ?? undefined;
        }
        outcome = await runSearch({
          root: sandbox.root,
          files: listing,
          candidates,
          source,
          flags,
          literals,
          latin1Safety: latin1Safety(source),
          maxResults,
          maxFileBytes: limits.maxFileBytes,
          maxLineChars: 300,
          timeoutMs: Math.max(1, limits.searchTimeoutMs - (Date.now() - startedMs)),
          signal: context?.signal,
        });
      } catch (error) {
        if (error instanceof SearchStoppedError && error.reason === 'timeout') {
          throw new Error(
            `search_text stopped after ${limits.searchTimeoutMs / 1000} s: the pattern ${JSON.stringify(input.pattern)} ` +
              'is too slow (nested quantifiers like (a+)+ backtrack catastrophically) or the search is too broad. ' +
              'Simplify the pattern or narrow it with path or glob.',
            { cause: error },
          );
        }
        throw error;
      }
      const files = await listing;
      return format(outcome, { files: files.length, walkTruncated: files.truncated, maxResults, limits });
    },
  });
}

function format(
  outcome: SearchOutcome,
  context: {
    files: number;
    walkTruncated: boolean;
    maxResults: number;
    limits: { maxFileBytes: number; maxOutputChars: number; maxFiles: number };
  },
): string {
  const total = outcome.counts.reduce((sum, entry) => sum + entry.count, 0);
  const lines = outcome.matches.map((match) => `${match.path}:${match.line}: ${match.text}`);
  if (total === 0) lines.push(`No matches in ${context.files} files.`);
  const notes: string[] = [];
  if (total > context.maxResults) {
    const perFile = [...outcome.counts].sort((left, right) => right.count - left.count).slice(0, 20);
    notes.push(
      `[Showing ${outcome.matches.length} of ${total} matching lines in ${outcome.counts.length} files. ` +
        'Narrow your search with glob, path or a more specific pattern, or raise max_results. Matches per file:',
      ...perFile.map((entry) => `  ${entry.path}: ${entry.count}`),
      ...(outcome.counts.length > perFile.length
        ? [`  ... and ${outcome.counts.length - perFile.length} more files`]
        : []),
      ']',
    );
  }
  if (outcome.tooLarge.length > 0) {
    const names = outcome.tooLarge.slice(0, 5).join(', ');
    notes.push(
      `[Skipped ${outcome.tooLarge.length} files over ${formatBytes(context.limits.maxFileBytes)}: ${names}` +
        `${outcome.tooLarge.length > 5 ? ', ...' : ''}. Page through them with read_file.]`,
    );
  }
  if (context.walkTruncated)
    notes.push(
      `[Only ${context.files} files were searched. ${walkStopped(context.files, context.limits.maxFiles)} ` +
        'Narrow with path or glob to search the rest.]',
    );
  const text = [...lines, ...(notes.length > 0 ? ['', ...notes] : [])].join('\n');
  return truncateOutput(
    text,
    context.limits.maxOutputChars,
    'Narrow your search with glob, path or a more specific pattern.',
  );
}

/**
 * Printable ASCII runs that every match of a regular expression must contain, longest first,
 * for a byte-level prefilter. Conservative: a top-level `|` or an escape it does not know
 * gives none; groups, classes and other escapes end a run; an atom quantified with `?`, `*`
 * or `{0,}` is dropped. Without the `u` flag, `i` folds ASCII letters only to ASCII letters,
 * so a case-folded byte search agrees with the decoded text.
 */
export function requiredLiterals(source: string): string[] {
  const literals = new Set<string>();
  let run = '';
  const endRun = (): void => {
    if (run !== '') literals.add(run);
    run = '';
  };
  let index = 0;
  while (index < source.length) {
    const char = source[index] ?? '';
    let literal: string | null = null;
    let next = index + 1;
    if (char === '\\') {
      const escaped = source[index + 1] ?? '';
      next = index + 2;
      if (/^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]$/.test(escaped)) literal = escaped;
      else if (!/^[dDwWsSbBntrfv]$/.test(escaped)) return [];
    } else if (char === '[' || char === '(') {
      next = skipBracketed(source, index);
      if (next === -1) return [];
    } else if (char === '|' || char === ')') {
      return [];
    } else if (!'.^$'.includes(char) && /^[\x20-\x7e]$/.test(char)) {
      literal = char;
    }
    const quantifier = /^(?:([*?])|(\+)|\{(\d+)(?:,\d*)?\})\??/.exec(source.slice(next, next + 24));
    const optional = quantifier !== null && (quantifier[1] !== undefined || Number(quantifier[3]) === 0);
    if (literal !== null && !optional) run += literal;
    if (literal === null || quantifier !== null) endRun();
    index = next + (quantifier?.[0].length ?? 0);
  }
  endRun();
  return [...literals].sort((left, right) => right.length - left.length).slice(0, 3);
}

/** The index after the group or class opening at `start`, or -1 when it does not close. */
function skipBracketed(source: string, start: number): number {
  let depth = 0;
  let inClass = false;
  for (let index = start; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') index += 1;
    else if (inClass) {
      inClass = char !== ']';
      if (!inClass && depth === 0) return index + 1;
    } else if (char === '[') inClass = true;
    else if (char === '(') depth += 1;
    else if (char === ')' && --depth === 0) return index + 1;
  }
  return -1;
}

/**
 * Whether the regex gives the same matches on a Latin-1 view of UTF-8 bytes as on the decoded
 * text: when every atom can only match ASCII (no `.`, negated classes, `\S`/`\W`/`\D`, code
 * point escapes or non-ASCII characters); `\s`, `^` and `$` also see a few non-ASCII spaces
 * and line separators, so those need files without them.
 */
export function latin1Safety(source: string): Latin1Safety {
  if (/[^\x20-\x7e]/.test(source)) return 'never';
  let spaces = false;
  let inClass = false;
  for (let index = 0; index < source.length; index++) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
      const escaped = source[index] ?? '';
      if (/[SWDuxcpPk0-9]/.test(escaped)) return 'never';
      if (escaped === 's') spaces = true;
    } else if (inClass) inClass = char !== ']';
    else if (char === '[') {
      if (source[index + 1] === '^') return 'never';
      inClass = true;
    } else if (char === '.') return 'never';
    else if (char === '^' || char === '$') spaces = true;
  }
  return spaces ? 'unless-unicode-spaces' : 'always';
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
