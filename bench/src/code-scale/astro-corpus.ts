import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The astro snapshot in the shared corpora: withastro/astro at 99d3d3d, a pnpm monorepo. */
export const astroTarballName = 'astro-99d3d3d.tar.gz';

/** Where unpacked corpora are kept between runs. */
const corporaDirectory = join(tmpdir(), 'tool-orchestrator-bench-corpora');

/**
 * The astro tarball: in `corpus` (the tarball, or a folder holding it) when given, else in the
 * folder `TOOL_ORCHESTRATOR_CORPORA` names when set, else in `../shared/corpora` beside the
 * repository root. Returns the path tried when it is not there.
 */
export function findAstroTarball(
  corpus: string | undefined,
): { readonly tarball: string } | { readonly tried: string } {
  const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
  const environment = process.env['TOOL_ORCHESTRATOR_CORPORA'];
  const folder =
    corpus ??
    (environment === undefined || environment === ''
      ? join(repositoryRoot, '..', 'shared', 'corpora')
      : environment);
  const candidate = folder.endsWith('.tar.gz') ? resolve(folder) : resolve(folder, astroTarballName);
  return existsSync(candidate) ? { tarball: candidate } : { tried: candidate };
}

/**
 * Runs `make` into a fresh folder once and reuses it: `name` under the corpora folder, marked
 * complete by a file beside it (not inside, so no tool sees it), so an interrupted run starts over.
 */
function once(name: string, make: (folder: string) => void): string {
  const folder = join(corporaDirectory, name);
  const marker = `${folder}.complete`;
  if (existsSync(marker) && existsSync(folder)) return folder;
  mkdirSync(corporaDirectory, { recursive: true });
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  make(partial);
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  writeFileSync(marker, `${new Date().toISOString()}\n`);
  return folder;
}

/** The unpacked astro repository (its `astro/` folder), unpacking the tarball on first use. */
export function unpackAstro(tarball: string): string {
  const folder = once(astroTarballName.replace(/\.tar\.gz$/, ''), (partial) => {
    const result = spawnSync('tar', ['-xzf', tarball, '-C', partial], { encoding: 'utf8' });
    if (result.status !== 0)
      throw new Error(`tar -xzf ${tarball} failed: ${result.stderr || result.error?.message}`);
  });
  const root = join(folder, 'astro');
  if (!statSync(root).isDirectory()) throw new Error(`${tarball} did not unpack to an astro/ folder.`);
  return root;
}

/**
 * A synthetic monorepo about twice astro's size: astro with its `packages/` folder copied
 * beside it as `packages-copy/`, made once from the unpacked astro.
 */
export function astroTwice(astroRoot: string): string {
  const folder = once(`${dirname(astroRoot).split('/').at(-1)}-twice`, (partial) => {
    const root = join(partial, 'astro');
    cpSync(astroRoot, root, { recursive: true });
    cpSync(join(astroRoot, 'packages'), join(root, 'packages-copy'), { recursive: true });
  });
  return join(folder, 'astro');
}

/** A throwaway copy of a corpus, for a job that edits files; remove it with the returned function. */
export function copyCorpus(root: string): { readonly root: string; readonly remove: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'tool-orchestrator-bench-edit-'));
  const copy = join(parent, 'astro');
  cpSync(root, copy, { recursive: true });
  return { root: copy, remove: () => rmSync(parent, { recursive: true, force: true }) };
}
