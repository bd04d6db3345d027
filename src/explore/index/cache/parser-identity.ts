import { readFileSync } from 'node:fs';
import { requireHere } from '../../../shared/require-here.js';
import { join } from 'node:path';
import packageJson from '../../../../package.json' with { type: 'json' };
import { treeSitterLanguages } from '../tree-sitter/tree-sitter-languages.js';
import { cacheEntryFormat } from './cache-entry.js';

/**
 * The version in the package.json of `packageName` where Node would find it. Read, not required
 * (a required package.json would show the package as loaded), and looked up in the
 * `node_modules` folders directly, as some packages do not export their package.json.
 */
function installedVersion(packageName: string): string {
  for (const folder of requireHere().resolve.paths(packageName) ?? []) {
    try {
      const manifest = readFileSync(join(folder, packageName, 'package.json'), 'utf8');
      return (JSON.parse(manifest) as { version?: string }).version ?? 'unknown';
    } catch {
      // Not in this folder: try the next one up.
    }
  }
  return 'missing';
}

let identity: string | undefined;

/**
 * What produced a parse, as part of every cache key: this package's version, the cache entry
 * format, the V8 that serialized it, and the installed versions of TypeScript, web-tree-sitter and
 * each grammar (read from their package.json, so nothing is loaded). A new version of any of them
 * makes every entry a miss, never a stale hit.
 */
export function parserIdentity(): string {
  identity ??= JSON.stringify([
    packageJson.name,
    packageJson.version,
    cacheEntryFormat,
    process.versions.v8,
    [
      'typescript',
      'web-tree-sitter',
      ...Object.values(treeSitterLanguages).map((spec) => spec.grammarPackage),
    ]
      .sort()
      .map((name) => `${name}@${installedVersion(name)}`),
  ]);
  return identity;
}
