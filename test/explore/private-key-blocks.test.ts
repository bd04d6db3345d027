import { describe, expect, it } from 'vitest';
import {
  PrivateKeyStream,
  privateKeyRedaction,
  redactLine,
  redactPrivateKeys,
} from '../../src/explore/sandbox/private-key-blocks.js';

const redaction = privateKeyRedaction;
const body = ['b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ', 'QyNTUxOQAAACD0FAKE0FAKE0FAKE0FAKE0FAKE0FAKE'];
const block = (label: string): string =>
  [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
const ssh2Block = [
  '---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----',
  'Comment: "2048-bit rsa"',
  ...body,
  '---- END SSH2 ENCRYPTED PRIVATE KEY ----',
].join('\n');
const redacted = (lines: number): string => Array.from({ length: lines }, () => redaction).join('\n');

describe('redactPrivateKeys', () => {
  it('redacts every line of each kind of private key block, armor lines included', () => {
    for (const label of [
      'RSA PRIVATE KEY',
      'EC PRIVATE KEY',
      'DSA PRIVATE KEY',
      'OPENSSH PRIVATE KEY',
      'ENCRYPTED PRIVATE KEY',
      'PRIVATE KEY',
      'PGP PRIVATE KEY BLOCK',
    ]) {
      expect(redactPrivateKeys(`before\n${block(label)}\nafter\n`), label).toBe(
        `before\n${redacted(4)}\nafter\n`,
      );
    }
    expect(redactPrivateKeys(ssh2Block)).toBe(redacted(5));
  });

  it('leaves certificates and public keys as they are', () => {
    for (const label of ['CERTIFICATE', 'PUBLIC KEY', 'RSA PUBLIC KEY', 'PGP PUBLIC KEY BLOCK']) {
      const text = `${block(label)}\n`;
      expect(redactPrivateKeys(text), label).toBe(text);
    }
  });

  it('keeps the code around an inline key, and the line count', () => {
    const source = [
      'export const port = 8080;',
      `export const key = "-----BEGIN RSA PRIVATE KEY-----\\n${body[0]}\\n-----END RSA PRIVATE KEY-----\\n";`,
      "const other = '-----BEGIN EC PRIVATE KEY-----\\n' +",
      `  '${body[1]}\\n' +`,
      "  '-----END EC PRIVATE KEY-----\\n';",
      'export const host = "example.com";',
    ].join('\n');
    expect(redactPrivateKeys(source).split('\n')).toEqual([
      'export const port = 8080;',
      `export const key = "${redaction}\\n";`,
      `const other = '${redaction}`,
      redaction,
      `${redaction}\\n';`,
      'export const host = "example.com";',
    ]);
  });

  it('redacts to the end of the text when no END line follows, keeping empty lines and \\r', () => {
    const text = `a\r\nkey: -----BEGIN PRIVATE KEY-----\r\n${body[0]}\r\n\r\n${body[1]}\r\n`;
    expect(redactPrivateKeys(text)).toBe(`a\r\nkey: ${redaction}\r\n${redaction}\r\n\r\n${redaction}\r\n`);
  });

  it('ignores an END line outside a block and a second BEGIN inside one', () => {
    const text = [
      '-----END PRIVATE KEY-----',
      'kept',
      '-----BEGIN PRIVATE KEY-----',
      '-----BEGIN EC PRIVATE KEY-----',
      'inside',
      'x -----END EC PRIVATE KEY----- between -----BEGIN PRIVATE KEY----- y',
      'inside again',
      '-----END PRIVATE KEY----------BEGIN PRIVATE KEY-----END PRIVATE KEY----- kept',
      'kept',
    ].join('\n');
    expect(redactPrivateKeys(text).split('\n')).toEqual([
      '-----END PRIVATE KEY-----',
      'kept',
      redaction,
      redaction,
      redaction,
      `${redaction} between ${redaction}`,
      redaction,
      `${redaction}${redaction} kept`,
      'kept',
    ]);
  });
});

/** What {@link PrivateKeyStream} and {@link redactLine} make of `text` fed in chunks of these sizes. */
function streamed(text: string, chunkSizes: readonly number[]): string {
  const bytes = Buffer.from(text, 'latin1');
  const stream = new PrivateKeyStream();
  const lines: string[] = [];
  const endLine = (start: number, end: number): void => {
    const line = bytes.toString('latin1', start, end);
    const armors = stream.endLine(start, end);
    lines.push(armors.insideAtStart || armors.armors.length > 0 ? redactLine(line, armors) : line);
  };
  let offset = 0;
  let lineStart = 0;
  for (let index = 0; offset < bytes.length; index++) {
    const chunk = bytes.subarray(offset, offset + (chunkSizes[index % chunkSizes.length] ?? 1));
    stream.scan(chunk);
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, newline + 1)) {
      endLine(lineStart, offset + newline);
      lineStart = offset + newline + 1;
    }
    offset += chunk.length;
  }
  endLine(lineStart, bytes.length);
  return lines.join('\n');
}

describe('PrivateKeyStream', () => {
  // Armors cut at every byte, on their own lines and inline, with extra dashes around them.
  const texts = [
    `x\n${block('OPENSSH PRIVATE KEY')}\ny\n`,
    `a -----BEGIN RSA PRIVATE KEY----- b\nc\nd -----END RSA PRIVATE KEY----- e\nf`,
    `------BEGIN PRIVATE KEY-----\nz\n-------END PRIVATE KEY-------\nkept\n`,
    `${ssh2Block}\nkept\n-----BEGIN PGP PRIVATE KEY BLOCK-----\nno end`,
    `-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\n${body[0]}\n-----END CERTIFICATE-----\n`,
    '-----BEGIN PRIVATE KEY-----END PRIVATE KEY-----BEGIN EC PRIVATE KEY-----END EC PRIVATE KEY----- x\r\n',
  ];

  it('agrees with redactPrivateKeys whatever the chunk sizes', () => {
    for (const text of texts) {
      const expected = redactPrivateKeys(text);
      for (let size = 1; size <= text.length; size++) {
        expect(streamed(text, [size]), `${JSON.stringify(text)} in chunks of ${size}`).toBe(expected);
      }
      expect(streamed(text, [3, 17, 1, 40])).toBe(expected);
    }
  });
});
