import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** Options of {@link createConsumerApp}. */
export interface ConsumerAppOptions {
  /** This repository: where `npm pack` runs and whose node_modules the links point into. */
  readonly root: string;
  /** Packages linked beside the package's own dependencies and peers (types, tools the docs install). */
  readonly extraPackages: readonly string[];
  /**
   * Packages whose commands the docs run with `npx -y <package>`: linked, with their bins in
   * `node_modules/.bin`, so `npx` finds them installed and never asks the registry.
   */
  readonly commandPackages: readonly string[];
}

/**
 * A consumer app in a temp folder with the package as `npm pack` makes it: the tarball unpacked into
 * `node_modules/tool-orchestrator`, and beside it only what its package.json declares (dependencies
 * and peer dependencies) plus `extraPackages` and `commandPackages`, linked from this repository's
 * node_modules so nothing is downloaded. Nothing outside the tarball (`src/`, `test/`, the
 * repository's own `dist/`) can resolve from a module inside the app.
 *
 * @returns the app's folder; the caller removes it.
 */
export function createConsumerApp(options: ConsumerAppOptions): string {
  const app = mkdtempSync(join(tmpdir(), 'docs-consumer-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', app], {
      cwd: options.root,
      encoding: 'utf8',
    }),
  ) as { filename: string }[];
  const installed = join(app, 'node_modules', 'tool-orchestrator');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(app, packed[0]!.filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const linked = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...options.extraPackages,
    ...options.commandPackages,
  ]);
  for (const name of linked) {
    const target = join(app, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(options.root, 'node_modules', name), target, 'dir');
  }
  for (const name of options.commandPackages) linkBins(app, name);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'docs-consumer', private: true, type: 'module' }),
  );
  return app;
}

/** Links the commands of an installed package into `node_modules/.bin`, as `npm install` would. */
function linkBins(app: string, name: string): void {
  const folder = join(app, 'node_modules', name);
  const { bin } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    bin?: string | Record<string, string>;
  };
  const bins = typeof bin === 'string' ? { [name.split('/').pop()!]: bin } : (bin ?? {});
  const binFolder = join(app, 'node_modules', '.bin');
  mkdirSync(binFolder, { recursive: true });
  for (const [command, file] of Object.entries(bins)) {
    symlinkSync(relative(binFolder, join(folder, file)), join(binFolder, command));
  }
}
