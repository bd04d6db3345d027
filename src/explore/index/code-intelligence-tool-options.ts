import type { CodeToolLimits } from '../code-tool-limits.js';
import { defaultCodeToolLimits } from '../code-tool-limits.js';
import { CodeIndex } from './code-index.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import type { ParseCacheOptions } from './cache/parse-cache-options.js';

/** What each code intelligence tool factory takes: the shared index and optional output caps. */
export interface CodeIntelligenceToolOptions {
  readonly index: CodeIndex;
  readonly limits?: Partial<Pick<CodeToolLimits, 'maxOutputChars'>>;
}

/** The most characters a code intelligence tool returns. @default `defaultCodeToolLimits.maxOutputChars` */
export function maxOutputCharsOf(options: CodeIntelligenceToolOptions): number {
  return options.limits?.maxOutputChars ?? defaultCodeToolLimits.maxOutputChars;
}

const indexes = new WeakMap<object, CodeIndex>();

/**
 * One `CodeIndex` per sandbox, so every tool of a registry shares the same parse cache and
 * language service. `given` (the caller's prebuilt index) wins when it is a `CodeIndex`.
 */
export function codeIndexFor(sandbox: object, create: () => CodeIndex, given?: unknown): CodeIndex {
  if (given !== undefined && given !== null && typeof (given as CodeIndex).references === 'function')
    return given as CodeIndex;
  let index = indexes.get(sandbox);
  if (index === undefined) {
    index = create();
    indexes.set(sandbox, index);
  }
  return index;
}

/** What `createCodeTools` hands each tool factory. */
interface RegistryContext {
  readonly sandbox: CodeIndexSandbox & object;
  readonly limits?: Partial<CodeToolLimits>;
  readonly index?: unknown;
  readonly cache?: boolean | ParseCacheOptions;
  readonly watch?: boolean;
  readonly ripgrep?: boolean | string;
}

/**
 * Adapts a code intelligence tool factory (`{ index, limits }`) to the pack's factory shape
 * (`{ sandbox, limits, index? }`): every tool of one sandbox shares one lazily built `CodeIndex`.
 */
export function withCodeIndex<Result>(factory: (options: CodeIntelligenceToolOptions) => Result) {
  return (context: RegistryContext): Result => {
    const index = codeIndexFor(
      context.sandbox,
      () =>
        new CodeIndex({
          sandbox: context.sandbox,
          ...(context.cache === undefined ? {} : { cache: context.cache }),
          ...(context.watch === undefined ? {} : { watch: context.watch }),
          ...(context.ripgrep === undefined ? {} : { ripgrep: context.ripgrep }),
        }),
      context.index,
    );
    return factory({ index, ...(context.limits === undefined ? {} : { limits: context.limits }) });
  };
}
