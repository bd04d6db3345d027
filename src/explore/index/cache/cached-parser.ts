import { createHash } from 'node:crypto';
import type { FileParser } from '../project-files.js';
import { ParseCache } from './parse-cache.js';
import type { ResolvedParseCacheOptions } from './parse-cache-options.js';
import { parserIdentity } from './parser-identity.js';

const caches = new Map<string, ParseCache>();

/** One `ParseCache` per folder in a process, so its trimming is not run by several at once. */
function parseCacheFor(options: ResolvedParseCacheOptions): ParseCache {
  const key = `${options.directory}\n${options.maxBytes}`;
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = new ParseCache(options);
    caches.set(key, cache);
  }
  return cache;
}

/**
 * `parse` with an on-disk cache in front: the key is a SHA-256 of the parser's identity, the
 * file's repo path and its text, so identical content at the same path (a copied checkout, a
 * branch switched back) is a hit and any change is a miss. Parses with a `notice` (a grammar
 * missing or failing) are not stored: installing the grammar must give the full parse.
 */
export function cachedParser(parse: FileParser, options: ResolvedParseCacheOptions): FileParser {
  const cache = parseCacheFor(options);
  return async (path, text) => {
    const key = createHash('sha256')
      .update(parserIdentity())
      .update('\0')
      .update(path)
      .update('\0')
      .update(text)
      .digest('hex');
    const cached = await cache.get(key, path);
    if (cached !== undefined) return cached;
    const parsed = await parse(path, text);
    if (parsed !== undefined && parsed.notice === undefined) void cache.set(key, parsed);
    return parsed;
  };
}
