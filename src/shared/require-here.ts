import { createRequire } from 'node:module';

/**
 * A `require` resolving from this package's own files. `import.meta.url` first: in ESM a global
 * `__filename` can exist that is not ours (`node -e` defines one, `[eval]`, which would resolve
 * from the working directory); the CommonJS build has no `import.meta.url`.
 */
export function requireHere(): NodeJS.Require {
  const url = (import.meta as { url?: unknown }).url;
  return createRequire(typeof url === 'string' && url !== '' ? url : __filename);
}
