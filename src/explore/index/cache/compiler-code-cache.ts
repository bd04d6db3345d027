import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { Module, createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { requireHere } from '../../../shared/require-here.js';
import { readTouched } from './read-touched.js';

/** Bumped when the file layout below changes: files of another format are never read. */
export const compilerCacheFormat = 1;
const magic = Buffer.from(`tool-orchestrator compiler code cache v${compilerCacheFormat}\n`);
const digestBytes = 32;

/** How {@link preloadTypeScript} went. */
export type TypeScriptPreload =
  /** Already loaded (by us, the app, or a test runner): nothing done. */
  | 'present'
  /** Compiled from V8's code cache found in the folder. */
  | 'from-cache'
  /** Compiled from source (no cache, or one V8 or the checks rejected); the cache written (or given up on). */
  | 'compiled'
  /** Not loaded: not installed, or loading failed; a later `require('typescript')` loads it as usual. */
  | 'not-loaded';

/** The folder of the compiler's code cache in a cache folder. */
export function compilerCacheFolder(directory: string): string {
  return join(directory, `compiler-v${compilerCacheFormat}`);
}

/**
 * Loads the TypeScript compiler (a 9 MB CommonJS file) the way `require('typescript')` would,
 * but with V8's code cache for it kept in `directory`, so a process after the first does not
 * compile it again. The module lands in `require.cache`: every later `require('typescript')`,
 * ours or the app's, gets this instance. Does nothing when TypeScript is already loaded. A cache
 * file is used only when its SHA-256 matches and V8 accepts it (same TypeScript file, Node, V8
 * and flags); otherwise the compiler is compiled from source and the cache written afresh before
 * this resolves. Never throws: any failure leaves loading to `require`.
 *
 * @param onWritten told the size of a cache file once written, so the folder's size cap counts it.
 */
export async function preloadTypeScript(
  directory: string,
  onWritten?: (bytes: number) => void,
): Promise<TypeScriptPreload> {
  let path: string;
  try {
    path = requireHere().resolve('typescript');
  } catch {
    return 'not-loaded';
  }
  const cache = requireHere().cache;
  if (cache[path] !== undefined) return 'present';
  try {
    const [sourceBytes, stats] = await Promise.all([readFile(path), stat(path)]);
    const source = sourceBytes.toString('utf8');
    const location = join(compilerCacheFolder(directory), `${cacheKey(path, stats)}.bin`);
    const cachedData = unpack(await readTouched(location));
    // Another load may have run while this one read.
    if (cache[path] !== undefined) return 'present';
    const script = new Script(Module.wrap(source), {
      filename: path,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    runAsModule(script, path, cache);
    if (cachedData !== undefined && script.cachedDataRejected !== true) return 'from-cache';
    const written = await write(location, script.createCachedData());
    if (written !== undefined) onWritten?.(written);
    return 'compiled';
  } catch {
    return cache[path] === undefined ? 'not-loaded' : 'present';
  }
}

/** Names the cache by everything V8's code for the file depends on that a file name can carry. */
function cacheKey(path: string, stats: { readonly size: number; readonly mtimeMs: number }): string {
  const identity = [path, stats.size, stats.mtimeMs, process.version, process.versions.v8, process.arch];
  return createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 32);
}

/** Runs the compiled module wrapper as Node's CommonJS loader would, registering it first (and unregistering it if it throws). */
function runAsModule(script: Script, path: string, cache: NodeJS.Require['cache']): void {
  const wrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  const required = new Module(path);
  required.filename = path;
  const requireThere = createRequire(path);
  required.paths = requireThere.resolve.paths('typescript') ?? [];
  cache[path] = required;
  try {
    wrapper.call(required.exports, required.exports, requireThere, required, path, dirname(path));
  } catch (error) {
    // As Node's loader does for a module that throws.
    delete cache[path];
    throw error;
  }
  required.loaded = true;
}

/** The code cache in a file written by {@link write}, or `undefined` when missing or damaged. */
function unpack(bytes: Buffer | undefined): Buffer | undefined {
  if (bytes === undefined || bytes.length <= magic.length + digestBytes) return undefined;
  if (!bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const digest = bytes.subarray(magic.length, magic.length + digestBytes);
  const data = bytes.subarray(magic.length + digestBytes);
  return createHash('sha256').update(data).digest().equals(digest) ? data : undefined;
}

/** Writes the cache atomically, replacing the folder's other caches (another TypeScript or Node); resolves to its size, or `undefined` when it could not. */
async function write(location: string, data: Buffer): Promise<number | undefined> {
  const folder = dirname(location);
  const temporary = `${location}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const bytes = Buffer.concat([magic, createHash('sha256').update(data).digest(), data]);
  try {
    await mkdir(folder, { recursive: true });
    await writeFile(temporary, bytes);
    await rename(temporary, location);
  } catch {
    await unlink(temporary).catch(() => undefined);
    return undefined;
  }
  const others = await readdir(folder).catch(() => [] as string[]);
  const name = location.slice(folder.length + 1);
  await Promise.all(
    others
      .filter((other) => other !== name && other.endsWith('.bin'))
      .map((other) => unlink(join(folder, other)).catch(() => undefined)),
  );
  return bytes.length;
}
