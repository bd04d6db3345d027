import type { CodeIndexSandbox } from '../code-index-sandbox.js';
import { readTexts } from '../read-texts.js';
import { isDataModule, languageOf } from '../languages.js';
import { createModuleResolver, isModuleConfigFile } from './module-resolver.js';
import type { ModuleResolver } from './module-resolver.js';

/** Configuration files (package.json, tsconfig, go.mod, Cargo.toml) read for module resolution, at most. */
const maxConfigFiles = 2000;
const maxConfigBytes = 512 * 1024;

/**
 * The module resolver of a repository listing, built once per listing from its configuration
 * files: a new listing (files added or deleted) gets a new resolver, the same listing the same one.
 */
export class ListingResolvers {
  readonly #sandbox: CodeIndexSandbox;
  #current: { readonly listing: readonly string[]; readonly resolver: Promise<ModuleResolver> } | undefined;

  constructor(sandbox: CodeIndexSandbox) {
    this.#sandbox = sandbox;
  }

  /** The resolver of `listing` (repo-relative paths), built on its first request. */
  resolverFor(listing: readonly string[]): Promise<ModuleResolver> {
    if (this.#current?.listing !== listing) {
      const resolver = this.#build(listing);
      resolver.catch(() => (this.#current = undefined));
      this.#current = { listing, resolver };
    }
    return this.#current.resolver;
  }

  async #build(listing: readonly string[]): Promise<ModuleResolver> {
    const configs = new Map<string, string>();
    const configPaths = listing.filter(isModuleConfigFile).slice(0, maxConfigFiles);
    // An unreadable or oversized config resolves nothing; the rest still does.
    await readTexts(this.#sandbox, configPaths, { maxBytes: maxConfigBytes }, (path, text) => {
      if (text !== undefined) configs.set(path, text);
    });
    const root = this.#sandbox.root;
    return createModuleResolver(
      listing.filter((path) => languageOf(path) !== undefined || isDataModule(path)),
      configs,
      root.slice(root.lastIndexOf('/') + 1),
    );
  }
}
