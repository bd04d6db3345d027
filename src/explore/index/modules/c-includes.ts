import { posix } from 'node:path';

/**
 * Resolves C/C++ `#include`s to repo files: a quoted include from the including file's folder
 * first, then, quoted or angled, the one repo file whose path ends with the include path
 * (the shortest such path, as an `include/` folder on the include path would give).
 * `<stdio.h>` and other system headers resolve to nothing unless the repo has that file.
 */
export class CIncludes {
  readonly #exists: (path: string) => boolean;
  readonly #byName = new Map<string, string[]>();

  constructor(files: readonly string[], exists: (path: string) => boolean) {
    this.#exists = exists;
    for (const file of files) {
      const name = posix.basename(file);
      this.#byName.set(name, [...(this.#byName.get(name) ?? []), file]);
    }
    for (const list of this.#byName.values()) list.sort((left, right) => left.length - right.length);
  }

  resolve(importer: string, specifier: string, quoted: boolean): string | undefined {
    if (quoted) {
      const local = posix.normalize(posix.join(posix.dirname(importer), specifier));
      if (!local.startsWith('../') && this.#exists(local)) return local;
    }
    const candidates = this.#byName.get(posix.basename(specifier)) ?? [];
    // An angled include of a bare name (`<vector>`, `<stdio.h>`) is a system header unless quoted.
    if (!quoted && !specifier.includes('/')) return undefined;
    return candidates.find((file) => file === specifier || file.endsWith(`/${specifier}`));
  }
}
