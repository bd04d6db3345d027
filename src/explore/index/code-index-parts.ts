import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { Sandbox } from '../sandbox/sandbox.js';
import type { CodeIndexSandbox } from './code-index-sandbox.js';
import type { CodeIndexOptions } from './code-index-options.js';
import type { CodeIndexEngine } from './load-code-index-engine.js';
import { ProjectFiles } from './project-files.js';
import { ScriptProgram } from './script-program.js';
import { SourceTexts } from './source-texts.js';
import { RipgrepPrefilter } from './ripgrep-prefilter.js';
import { resolveParseCacheOptions } from './cache/parse-cache-options.js';
import type { ResolvedParseCacheOptions } from './cache/parse-cache-options.js';
import { parserIdentity } from './cache/parser-identity.js';
import { SnapshotStore } from './cache/snapshot-store.js';
import { indexLoaders } from './index-loaders.js';
import { ListingResolvers } from './modules/listing-resolvers.js';

/** What a `CodeIndex` is made of, built from its options. */
export interface CodeIndexParts {
  readonly sandbox: CodeIndexSandbox;
  /** The text prefilter, with the repository snapshot's store when there is a cache. */
  readonly texts: SourceTexts;
  readonly files: ProjectFiles;
  readonly program: ScriptProgram;
  readonly resolvers: ListingResolvers;
  /** Loads the compiler (from the cache's code cache when there is a cache) and the engine. */
  readonly loadEngine: () => Promise<CodeIndexEngine>;
  readonly cache: ResolvedParseCacheOptions | undefined;
  readonly scope: 'question' | 'whole-repo';
}

/**
 * Checks a `CodeIndex`'s options and builds its parts: the sandbox (the caller's, or one over
 * `root`), the text prefilter (ripgrep only with the index's own `Sandbox`), the file set, the
 * module resolvers and the program.
 *
 * @throws {InvalidArgumentError} when neither a `root` nor a `sandbox` is given.
 */
export function codeIndexParts(options: CodeIndexOptions): CodeIndexParts {
  if (options.sandbox === undefined && (typeof options.root !== 'string' || options.root === '')) {
    throw new InvalidArgumentError({
      argument: 'root',
      value: options.root,
      message: 'pass the repository directory as `root`, or a `sandbox`.',
    });
  }
  const sandbox =
    options.sandbox ??
    new Sandbox({
      root: options.root ?? '.',
      ...(options.include === undefined ? {} : { include: options.include }),
      ...(options.exclude === undefined ? {} : { exclude: options.exclude }),
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
  const maxFileBytes = options.limits?.maxFileBytes ?? sandbox.limits?.maxFileBytes ?? 2 * 1024 * 1024;
  const cache = resolveParseCacheOptions(options.cache);
  const ripgrep = options.ripgrep ?? true;
  const texts: SourceTexts = new SourceTexts({
    sandbox,
    maxFileBytes,
    ...(ripgrep === false || !(sandbox instanceof Sandbox)
      ? {}
      : { ripgrep: new RipgrepPrefilter(ripgrep === true ? 'rg' : ripgrep, sandbox.root) }),
    ...(cache === undefined
      ? {}
      : {
          snapshots: new SnapshotStore(cache, { root: sandbox.root, identity: parserIdentity() }),
          listing: () => files.listingToStore(),
        }),
  });
  const loaders = indexLoaders(cache);
  const files: ProjectFiles = new ProjectFiles({
    sandbox,
    maxFileBytes,
    sources: texts,
    loadParser: loaders.loadParser,
    ...(options.watch === undefined ? {} : { watch: options.watch }),
    ...(cache === undefined ? {} : { storedListing: () => texts.storedListing() }),
  });
  const scope = options.scope ?? 'question';
  return {
    sandbox,
    texts,
    files,
    program: new ScriptProgram({ root: sandbox.root, files, texts, scope, loadEngine: loaders.loadEngine }),
    resolvers: new ListingResolvers(sandbox),
    loadEngine: loaders.loadEngine,
    cache,
    scope,
  };
}
