import type { FileParser, SourceParser } from '../file-source.js';
import { contentKey } from './content-key.js';
import { parseCacheFor } from './parse-cache.js';
import type { ResolvedParseCacheOptions } from './parse-cache-options.js';

/**
 * `parse` with an on-disk cache in front, keyed by {@link contentKey}: identical content at the
 * same path (a copied checkout, a branch switched back) is a hit and any change is a miss. A
 * source that comes with the key of its unchanged version is looked up without reading it; a
 * text read is keyed afresh and its key handed back (`keyed`). Parses with a `notice` (a grammar
 * missing or failing) are not stored: installing the grammar must give the full parse.
 */
export function cachedParser(parse: FileParser, options: ResolvedParseCacheOptions): SourceParser {
  const cache = parseCacheFor(options);
  return async (source) => {
    if (source.key !== undefined) {
      const cached = await cache.get(source.key, source.path);
      if (cached !== undefined) return cached;
    }
    const text = await source.text();
    const key = contentKey(source.path, text);
    source.keyed?.(key);
    if (key !== source.key) {
      const cached = await cache.get(key, source.path);
      if (cached !== undefined) return cached;
    }
    const parsed = await parse(source.path, text);
    if (parsed !== undefined && parsed.notice === undefined) void cache.set(key, parsed);
    return parsed;
  };
}
