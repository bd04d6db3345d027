import { createHash } from 'node:crypto';
import { parserIdentity } from './parser-identity.js';

/**
 * The key a file's parse is cached under: a SHA-256 of the parser's identity, the file's repo path
 * and its text, so identical content at the same path (a copied checkout, a branch switched back)
 * shares one entry and any change of text or parser gets another.
 */
export function contentKey(path: string, text: string): string {
  return createHash('sha256')
    .update(parserIdentity())
    .update('\0')
    .update(path)
    .update('\0')
    .update(text)
    .digest('hex');
}
