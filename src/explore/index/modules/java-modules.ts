import { posix } from 'node:path';

/**
 * Resolves Java (and Kotlin) imports to files by package path: `com.acme.util.Strings` is the
 * file ending in `com/acme/util/Strings.java` under any source root; a nested class or a static
 * member import falls back to the longest prefix that is a file; `com.acme.util.*` is every
 * file of that package folder.
 */
export class JavaModules {
  /** `Strings.java` → the files of that name. */
  readonly #byName = new Map<string, string[]>();
  readonly #byFolder = new Map<string, string[]>();

  constructor(files: readonly string[]) {
    for (const file of files) {
      if (!file.endsWith('.java') && !file.endsWith('.kt')) continue;
      const name = posix.basename(file);
      this.#byName.set(name, [...(this.#byName.get(name) ?? []), file]);
      const folder = posix.dirname(file);
      this.#byFolder.set(folder, [...(this.#byFolder.get(folder) ?? []), file]);
    }
  }

  #file(parts: readonly string[], extension: string): string | undefined {
    const suffix = `${parts.join('/')}${extension}`;
    return this.#byName
      .get(`${parts.at(-1) ?? ''}${extension}`)
      ?.find((file) => file === suffix || file.endsWith(`/${suffix}`));
  }

  resolve(specifier: string, names: readonly string[]): string[] {
    const parts = specifier.split('.').filter(Boolean);
    if (names.includes('*')) {
      const suffix = parts.join('/');
      for (const [folder, files] of this.#byFolder)
        if (folder === suffix || folder.endsWith(`/${suffix}`)) return [...files];
    }
    for (let length = parts.length; length > 0; length -= 1) {
      for (const extension of ['.java', '.kt']) {
        const file = this.#file(parts.slice(0, length), extension);
        if (file !== undefined) return [file];
      }
    }
    return [];
  }

  /** The other files of a file's folder: its package, whose classes it sees unimported. */
  samePackage(file: string): readonly string[] {
    return this.#byFolder.get(posix.dirname(file)) ?? [];
  }
}
