import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** Where an app runs, as a bundler targets it. */
export type BundleTarget = 'browser' | 'neutral' | 'worker';

/** esbuild's settings for each target; `worker` resolves as Cloudflare's wrangler does. */
const targetOptions: Record<BundleTarget, BuildOptions> = {
  browser: { platform: 'browser' },
  neutral: { platform: 'neutral' },
  worker: {
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
  },
};

/** What bundling an app gave. */
export interface BundleOutcome {
  /** esbuild's errors (an unresolved import, a Node built-in), as text; empty when it bundled. */
  readonly errors: readonly string[];
  /** Every file bundled, as esbuild names it (relative to the app's folder). */
  readonly inputs: readonly string[];
  /** Imports left out of the bundle (none should be). */
  readonly externals: readonly string[];
}

/** An app folder whose `node_modules/tool-orchestrator` is this package (its package.json and dist/). */
export interface BundleProject {
  /** Bundles `source`, an ES module importing `tool-orchestrator`, for `target`; never writes the output. */
  bundle(source: string, target: BundleTarget): Promise<BundleOutcome>;
  remove(): Promise<void>;
}

/**
 * Makes an app folder that imports the built package the way an app does (through
 * package.json#exports), for esbuild to bundle. Run `npm run build` after changing `src/`.
 */
export async function createBundleProject(): Promise<BundleProject> {
  const directory = await mkdtemp(join(tmpdir(), 'bundle-app-'));
  await mkdir(join(directory, 'node_modules'));
  await symlink(root, join(directory, 'node_modules', 'tool-orchestrator'), 'dir');
  // The app's own zod: the package's peer, the one the package's imports resolve to as well.
  await symlink(join(root, 'node_modules', 'zod'), join(directory, 'node_modules', 'zod'), 'dir');
  let count = 0;
  return {
    async bundle(source, target) {
      count += 1;
      const entry = join(directory, `app-${count}.js`);
      await writeFile(entry, source);
      try {
        const result = await build({
          entryPoints: [entry],
          absWorkingDir: directory,
          bundle: true,
          write: false,
          format: 'esm',
          outdir: join(directory, 'out'),
          splitting: true,
          metafile: true,
          logLevel: 'silent',
          ...targetOptions[target],
        });
        const metafile = result.metafile!;
        const outputs = Object.values(metafile.outputs);
        return {
          errors: [],
          inputs: Object.keys(metafile.inputs),
          externals: outputs.flatMap((output) =>
            output.imports.filter((imported) => imported.external).map((imported) => imported.path),
          ),
        };
      } catch (error) {
        const errors = (error as { errors?: { text: string }[] }).errors;
        if (errors === undefined) throw error;
        return { errors: errors.map((message) => message.text), inputs: [], externals: [] };
      }
    },
    async remove() {
      await rm(directory, { recursive: true, force: true });
    },
  };
}
