import { posix } from 'node:path';

function folderOf(path: string): string {
  const folder = posix.dirname(path);
  return folder === '.' ? '' : folder;
}

function inFolder(folder: string, path: string): string {
  return folder === '' ? path : `${folder}/${path}`;
}

/**
 * Resolves Rust module paths to files: `mod x;` and `use self::x` from the importer's module
 * folder, `super::`, `crate::` from the crate root (the folder of the nearest `lib.rs` or
 * `main.rs`), and `other_crate::` for crates of the workspace (their `Cargo.toml` names). A
 * module is `x.rs` or `x/mod.rs`; a path names the longest prefix that is a module file.
 */
export class RustModules {
  readonly #exists: (path: string) => boolean;
  readonly #crates = new Map<string, string>();

  constructor(configs: ReadonlyMap<string, string>, exists: (path: string) => boolean) {
    this.#exists = exists;
    for (const [path, text] of configs) {
      if (path !== 'Cargo.toml' && !path.endsWith('/Cargo.toml')) continue;
      const name = /^\[package\][^[]*?^\s*name\s*=\s*"([^"]+)"/ms.exec(text)?.[1];
      if (name === undefined) continue;
      const source = inFolder(folderOf(path), 'src');
      if (exists(inFolder(source, 'lib.rs')) || exists(inFolder(source, 'main.rs')))
        this.#crates.set(name.replaceAll('-', '_'), source);
    }
  }

  /** The crate root folder of a file: the nearest folder above it with `lib.rs` or `main.rs`. */
  #crateRoot(file: string): string | undefined {
    for (let folder = folderOf(file); ; folder = folderOf(folder)) {
      if (this.#exists(inFolder(folder, 'lib.rs')) || this.#exists(inFolder(folder, 'main.rs')))
        return folder;
      if (folder === '') return undefined;
    }
  }

  /** The folder holding a file's child modules: `src/a/` for `src/a.rs` and for `src/a/mod.rs`. */
  #moduleFolder(file: string): string {
    const base = posix.basename(file);
    if (base === 'mod.rs' || base === 'lib.rs' || base === 'main.rs') return folderOf(file);
    return inFolder(folderOf(file), base.slice(0, -'.rs'.length));
  }

  #module(path: string): string | undefined {
    if (this.#exists(`${path}.rs`)) return `${path}.rs`;
    if (this.#exists(`${path}/mod.rs`)) return `${path}/mod.rs`;
    return undefined;
  }

  /** Files a `use`/`mod` path resolves to: the module it names, then imported names that are modules. */
  resolve(importer: string, specifier: string, names: readonly string[]): string[] {
    const segments = specifier.split('::').filter(Boolean);
    const head = segments[0];
    let folder: string | undefined;
    let rest = segments.slice(1);
    if (head === 'crate') folder = this.#crateRoot(importer);
    else if (head === 'self') folder = this.#moduleFolder(importer);
    else if (head === 'super') {
      // The parent module's folder: one folder up per `super`.
      folder = folderOf(this.#moduleFolder(importer));
      while (rest[0] === 'super') {
        folder = folderOf(folder);
        rest = rest.slice(1);
      }
    } else if (head !== undefined) {
      folder = this.#crates.get(head);
      // Rust 2018 uniform paths: `use store::Store` names a child module when no crate has that name.
      if (folder === undefined) {
        const local = this.#module(inFolder(this.#moduleFolder(importer), head));
        if (local === undefined) return [];
        folder = this.#moduleFolder(importer);
        rest = segments;
      }
    }
    if (folder === undefined) return [];
    const resolved: string[] = [];
    for (let length = rest.length; length > 0; length -= 1) {
      const module = this.#module(inFolder(folder, rest.slice(0, length).join('/')));
      if (module !== undefined) {
        resolved.push(module);
        break;
      }
    }
    // Items of the folder's own module (`use super::helper`, `use crate::Config`): its file.
    if (resolved.length === 0) {
      const own =
        this.#module(folder) ??
        ['lib.rs', 'main.rs', 'mod.rs']
          .map((name) => inFolder(folder, name))
          .find((path) => this.#exists(path));
      if (own !== undefined && own !== importer) resolved.push(own);
    }
    for (const name of names) {
      if (name === '*' || name === 'self') continue;
      const module = this.#module(inFolder(folder, [...rest, name].join('/')));
      if (module !== undefined && !resolved.includes(module)) resolved.push(module);
    }
    return resolved;
  }
}
