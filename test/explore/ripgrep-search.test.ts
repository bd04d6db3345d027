import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';
import { createCodeTools } from '../../src/explore/index.js';

/** The `rg` on PATH, or why there is none. */
function findRipgrep(): { path: string } | { reason: string } {
  try {
    const path = execFileSync('sh', ['-c', 'command -v rg'], { encoding: 'utf8' }).trim();
    return path === '' ? { reason: 'rg is not on PATH' } : { path };
  } catch {
    return { reason: 'rg is not on PATH' };
  }
}

const ripgrep = findRipgrep();
if ('reason' in ripgrep) {
  if (process.env.CI === 'true')
    throw new Error(`CI must run the ripgrep path of search_text: ${ripgrep.reason}.`);
  console.log(`Skipping the ripgrep half of search_text's tests: ${ripgrep.reason}.`);
}

const context = { signal: new AbortController().signal } as never;
const privateKey = [
  '-----BEGIN RSA PRIVATE KEY-----',
  'needleInsideKey',
  '-----END RSA PRIVATE KEY-----',
].join('\n');
let root: string;
let logPath: string;
let wrapper: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'ripgrep-search-'));
  const file = async (path: string, content: string | Buffer): Promise<void> => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  };
  await file('.gitignore', '*.log\n!keep.log\nsecret/\n');
  await file('a.log', 'needle in an ignored log\n');
  await file('keep.log', 'needle kept by a negation\n');
  await file('sub/.gitignore', '!again.log\n');
  await file('sub/again.log', 'needle re-included below\n');
  await file('secret/x.ts', 'needle in an ignored folder\n');
  await file('node_modules/pkg/index.js', 'needle in a dependency\n');
  await file('dist/out.js', 'needle in build output\n');
  await file('.hidden/tool.ts', 'export const needle = "hidden folders are visible";\n');
  await file('id_rsa', 'needle in a denied key file\n');
  await file('src/config.ts', `const a = 'needle';\n${privateKey}\nconst b = 'NEEDLE';\n`);
  await file('big.txt', `${'x'.repeat(3_000)}\nneedle past the size cap\n`);
  await file('binary.dat', Buffer.concat([Buffer.from('needle\0'), Buffer.from('needle\n')]));
  await file('latin1.txt', Buffer.from('caf\xe9 needle\nna\xefve Needle\n', 'latin1'));
  await file('crlf.txt', 'first needle\r\nsecond line\r\nNeedle third\r\n');
  await file('-dash.txt', 'needle in a file named like an option\n');
  await file('unicode.md', 'ſtraße needle — \u2028 KELVIN \u212a needle\n');
  for (let index = 0; index < 6; index += 1) {
    await file(`src/many/m${index}.ts`, `import { needle } from './needle';\n`.repeat(index + 1));
  }
  if ('path' in ripgrep) {
    logPath = join(root, '..', `${root.split('/').pop() ?? ''}.rg-log`);
    wrapper = join(root, '..', `${root.split('/').pop() ?? ''}.rg.sh`);
    await writeFile(wrapper, `#!/bin/sh\necho "$1" >> '${logPath}'\nexec '${ripgrep.path}' "$@"\n`);
    await chmod(wrapper, 0o755);
  }
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
  if (wrapper !== undefined) await rm(wrapper, { force: true });
  if (logPath !== undefined) await rm(logPath, { force: true });
});

const searches: Record<string, Record<string, unknown>>[] = [
  { literal: { pattern: 'needle', regex: false, case_sensitive: true } },
  { 'case-insensitive': { pattern: 'NEEDLE', regex: false } },
  { regex: { pattern: 'import \\{ \\w+ \\} from', case_sensitive: true } },
  { 'regex, case-insensitive': { pattern: 'n[e]+dle\\b' } },
  { 'non-ASCII letters folded by JavaScript only': { pattern: 'stra', case_sensitive: false } },
  { 'Kelvin sign': { pattern: 'kelvin k', regex: false } },
  { glob: { pattern: 'needle', glob: '*.ts' } },
  { 'glob with a folder': { pattern: 'needle', glob: 'src/**/*.ts' } },
  { path: { pattern: 'needle', path: 'src/many' } },
  { 'path to one file': { pattern: 'needle', path: 'crlf.txt' } },
  { 'over the cap': { pattern: 'needle', max_results: 3 } },
  { 'zero matches': { pattern: 'no such text anywhere', regex: false } },
  { 'redaction marker': { pattern: 'private key redacted', regex: false } },
  { 'inside a key block': { pattern: 'needleInsideKey', case_sensitive: true } },
  { 'end of a CRLF line': { pattern: 'needle$' } },
  { 'no required literal': { pattern: 'needle|Needle', case_sensitive: true } },
];

describe.skipIf(!('path' in ripgrep))('search_text with ripgrep', () => {
  it.each(searches.map((entry) => Object.entries(entry)[0] as [string, Record<string, unknown>]))(
    'answers %s exactly as the built-in search does',
    async (_name, input) => {
      const limits = { maxFileBytes: 2_000 };
      const builtIn = createCodeTools({ root, tools: ['search_text'], ripgrep: false, limits }).search_text;
      const withRipgrep = createCodeTools({
        root,
        tools: ['search_text'],
        ripgrep: wrapper,
        limits,
      }).search_text;
      const expected = (await builtIn?.execute(input as never, context)) as string;
      await rm(logPath, { force: true });
      const actual = (await withRipgrep?.execute(input as never, context)) as string;
      expect(actual).toBe(expected);
      const ran = await readFile(logPath, 'utf8').catch(() => '');
      // The wrapper logs each run's first argument; a single file or a pattern with no plain string is read directly.
      expect(ran.includes('--no-config')).toBe(
        input.pattern !== 'needle|Needle' && input.path !== 'crlf.txt',
      );
    },
  );

  it('keeps the visibility rules of the sandbox', async () => {
    const tool = createCodeTools({
      root,
      tools: ['search_text'],
      ripgrep: wrapper,
      limits: { maxFileBytes: 2_000 },
    }).search_text;
    const output = (await tool?.execute({ pattern: 'needle', regex: false } as never, context)) as string;
    const files = new Set(output.split('\n').map((line) => line.split(':')[0]));
    expect([...files].filter((name) => name !== '' && !name?.startsWith('['))).toEqual(
      expect.arrayContaining([
        'keep.log',
        'sub/again.log',
        '.hidden/tool.ts',
        'src/config.ts',
        'latin1.txt',
        '-dash.txt',
      ]),
    );
    for (const hidden of [
      'a.log',
      'secret/x.ts',
      'node_modules/pkg/index.js',
      'dist/out.js',
      'id_rsa',
      'binary.dat',
    ])
      expect(files.has(hidden)).toBe(false);
    expect(output).toContain('[Skipped 1 files over 2 KiB: big.txt.');
    expect(output).not.toContain('needleInsideKey');
  });
});

describe('createCodeTools ripgrep option', () => {
  it('refuses a ripgrep path that is not an executable file, saying what to pass instead', async () => {
    const notExecutable = join(root, 'keep.log');
    expect(() => createCodeTools({ root, ripgrep: notExecutable })).toThrow(InvalidArgumentError);
    expect(() => createCodeTools({ root, ripgrep: join(root, 'no-such-rg') })).toThrow(
      /ripgrep.*no-such-rg.*pass true to use rg from PATH.*or false/s,
    );
  });
});
