import { cp, mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A copy of the built package whose node_modules lacks some packages. */
export interface PackageCopy {
  /** The copy's dist/ folder. */
  readonly dist: string;
  remove(): Promise<void>;
}

/**
 * Copies dist/ into a temporary folder beside a node_modules that links every package of this
 * repository's but `missing` (scopes by name, e.g. `'@modelcontextprotocol'`): the package as an
 * app that did not install those optional peers sees it. Run `npm run build` after changing `src/`.
 */
export async function copyPackageWithout(missing: readonly string[]): Promise<PackageCopy> {
  const directory = await mkdtemp(join(tmpdir(), 'package-without-'));
  try {
    await cp(join(root, 'dist'), join(directory, 'dist'), { recursive: true });
    await writeFile(join(directory, 'package.json'), JSON.stringify({ name: 'copy', type: 'module' }));
    await mkdir(join(directory, 'node_modules'));
    for (const name of await readdir(join(root, 'node_modules'))) {
      if (missing.includes(name) || name === '.bin') continue;
      await symlink(join(root, 'node_modules', name), join(directory, 'node_modules', name));
    }
  } catch (error) {
    await rm(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    dist: join(directory, 'dist'),
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}
