import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCodeTools, Sandbox } from '../../src/explore/index.js';

const context = { signal: new AbortController().signal } as never;
const redaction = '[private key redacted]';
let root: string;

/** Base64-looking lines that belong to no real key, distinct per label. */
function fakeKeyBody(label: string, lines: number): string[] {
  return Array.from({ length: lines }, (_, index) =>
    createHash('sha512').update(`${label} ${index}`).digest('base64').slice(0, 64),
  );
}

const deployKeyBody = fakeKeyBody('deploy', 20);
const inlineKeyBody = fakeKeyBody('inline', 2);
const concatenatedKeyBody = fakeKeyBody('concatenated', 2);
const yamlKeyBody = fakeKeyBody('yaml', 3);
const pgpKeyBody = fakeKeyBody('pgp', 3);
const bigKeyBody = fakeKeyBody('big', 4);
const certificateBody = fakeKeyBody('certificate', 3);
const keyBodies = [deployKeyBody, inlineKeyBody, concatenatedKeyBody, yamlKeyBody, pgpKeyBody, bigKeyBody];
/** Every line of key material, as any output would hold it. */
const keyMaterial = keyBodies.flat();

/** The credential stores the sandbox denies by name. */
const credentialFiles = [
  '.config/git/credentials',
  '.config/gh/hosts.yml',
  '.config/hub',
  '.terraform.d/credentials.tfrc.json',
  '.m2/settings.xml',
  '.yarnrc',
  '.composer/auth.json',
  '.boto',
  '.bash_history',
  'service-account.json',
  'credentials.json',
];

const sourceWithKeys = [
  'export const port = 8080;',
  `export const inlineKey = "-----BEGIN RSA PRIVATE KEY-----\\n${inlineKeyBody.join('\\n')}\\n-----END RSA PRIVATE KEY-----\\n";`,
  'export const concatenatedKey =',
  "  '-----BEGIN EC PRIVATE KEY-----\\n' +",
  ...concatenatedKeyBody.map((line) => `  '${line}\\n' +`),
  "  '-----END EC PRIVATE KEY-----\\n';",
  'export function greet(name: string): string {',
  '  return `Hello, ${name}`;',
  '}',
  '',
].join('\n');

const yamlWithKey = [
  'server:',
  '  port: 8443',
  '  tls_key: |',
  '    -----BEGIN PRIVATE KEY-----',
  ...yamlKeyBody.map((line) => `    ${line}`),
  '    -----END PRIVATE KEY-----',
  '  log_level: info',
  '',
].join('\n');

/** 300 KB of log lines with a key whose BEGIN line straddles the 256 KiB read-stream chunk. */
function bigLog(): { text: string; beginLine: number } {
  const filler = (count: number, from: number): string[] =>
    Array.from(
      { length: count },
      (_, index) => `log line ${String(from + index).padStart(6, '0')} ${'.'.repeat(40)}`,
    );
  const before = filler(4000, 0);
  let text = `${before.join('\n')}\n`;
  const pad = 256 * 1024 - 10 - Buffer.byteLength(text);
  const lines = [...before, 'p'.repeat(pad), '-----BEGIN OPENSSH PRIVATE KEY-----', ...bigKeyBody];
  lines.push('-----END OPENSSH PRIVATE KEY-----', ...filler(1000, 5000), '');
  text = lines.join('\n');
  return { text, beginLine: before.length + 2 };
}

const big = bigLog();

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'private-key-redaction-'));
  const write = async (relative: string, content: string): Promise<void> => {
    await mkdir(join(root, relative, '..'), { recursive: true });
    await writeFile(join(root, relative), content);
  };
  for (const file of credentialFiles) await write(file, 'TOKEN=secret-value\n');
  await write(
    'deploy_key',
    ['-----BEGIN OPENSSH PRIVATE KEY-----', ...deployKeyBody, '-----END OPENSSH PRIVATE KEY-----', ''].join(
      '\n',
    ),
  );
  await write('src/fixtures.ts', sourceWithKeys);
  await write('src/main.ts', 'export const answer = 42;\n');
  await write('config/app.yaml', yamlWithKey);
  await write(
    'docs/backup.txt',
    ['Restore with gpg --import:', '-----BEGIN PGP PRIVATE KEY BLOCK-----', '', ...pgpKeyBody].join('\n'),
  );
  await write(
    'certs/ca.crt',
    ['-----BEGIN CERTIFICATE-----', ...certificateBody, '-----END CERTIFICATE-----', ''].join('\n'),
  );
  await write('logs/big.log', big.text);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function call(name: string, input: Record<string, unknown>, at = root): Promise<string> {
  const tools = createCodeTools({ root: at, tools: [name] });
  return (await tools[name]?.execute(input as never, context)) as string;
}

function expectNoKeyMaterial(output: string): void {
  for (const line of keyMaterial) expect(output).not.toContain(line.slice(0, 24));
}

describe('private key blocks never reach the model', () => {
  it('list_files hides the credential stores and lists the rest', async () => {
    expect((await call('list_files', {})).split('\n')).toEqual([
      'certs/ca.crt',
      'config/app.yaml',
      'deploy_key',
      'docs/backup.txt',
      'logs/big.log',
      'src/fixtures.ts',
      'src/main.ts',
    ]);
  });

  it('read_file shows a key file with each line of its key redacted, whole and by line range', async () => {
    const whole = await call('read_file', { path: 'deploy_key' });
    expectNoKeyMaterial(whole);
    expect(whole).toBe(
      [
        'File: deploy_key (22 lines)',
        ...Array.from({ length: 22 }, (_, index) => `${String(index + 1).padStart(2)}\t${redaction}`),
      ].join('\n'),
    );
    const range = await call('read_file', { path: 'deploy_key', start_line: 5, end_line: 7 });
    expect(range).toBe(
      ['File: deploy_key (22 lines)', `5\t${redaction}`, `6\t${redaction}`, `7\t${redaction}`].join('\n') +
        '\n[Showing lines 5-7 of 22. To read on, call read_file with start_line=8.]',
    );
  });

  it('read_file keeps the code and config around an embedded key', async () => {
    const source = await call('read_file', { path: 'src/fixtures.ts' });
    expect(source.split('\n')).toEqual([
      'File: src/fixtures.ts (10 lines)',
      ' 1\texport const port = 8080;',
      ` 2\texport const inlineKey = "${redaction}\\n";`,
      ' 3\texport const concatenatedKey =',
      ` 4\t  '${redaction}`,
      ` 5\t${redaction}`,
      ` 6\t${redaction}`,
      ` 7\t${redaction}\\n';`,
      ' 8\texport function greet(name: string): string {',
      ' 9\t  return `Hello, ${name}`;',
      '10\t}',
    ]);
    const yaml = await call('read_file', { path: 'config/app.yaml' });
    expectNoKeyMaterial(yaml);
    expect(yaml).toContain('\n2\t  port: 8443\n');
    expect(yaml).toContain(`\n4\t    ${redaction}\n5\t${redaction}\n`);
    expect(yaml).toContain('\n9\t  log_level: info');
    // No END line: everything after BEGIN is redacted, empty lines stay empty.
    const pgp = await call('read_file', { path: 'docs/backup.txt' });
    expectNoKeyMaterial(pgp);
    expect(pgp.split('\n').slice(1)).toEqual([
      '1\tRestore with gpg --import:',
      `2\t${redaction}`,
      '3\t',
      `4\t${redaction}`,
      `5\t${redaction}`,
      `6\t${redaction}`,
    ]);
  });

  it('read_file redacts a key that straddles two chunks of a large file, in any window', async () => {
    const { beginLine } = big;
    for (const [start, end] of [
      [beginLine - 1, beginLine + 6],
      [beginLine + 2, beginLine + 3],
      [beginLine, beginLine],
    ] as const) {
      const window = await call('read_file', { path: 'logs/big.log', start_line: start, end_line: end });
      expectNoKeyMaterial(window);
      expect(window).not.toContain('PRIVATE KEY');
    }
    const around = await call('read_file', {
      path: 'logs/big.log',
      start_line: beginLine + 5,
      end_line: beginLine + 6,
    });
    expect(around).toContain(`${beginLine + 5}\t${redaction}`);
    expect(around).toContain(`${beginLine + 6}\tlog line 005000`);
  });

  it('read_file shows certificates, which are public', async () => {
    expect(await call('read_file', { path: 'certs/ca.crt' })).toContain(`2\t${certificateBody[0]}`);
  });

  it('search_text never matches key material or armor lines, and skips the credential stores', async () => {
    const begin = await call('search_text', { pattern: 'BEGIN', max_results: 2000 });
    expectNoKeyMaterial(begin);
    expect(begin).toBe('certs/ca.crt:1: -----BEGIN CERTIFICATE-----');
    expect(await call('search_text', { pattern: 'PRIVATE KEY', case_sensitive: true })).toBe(
      'No matches in 7 files.',
    );
    for (const body of keyBodies) {
      const inside = await call('search_text', { pattern: body[1] ?? '', regex: false });
      expect(inside).toBe('No matches in 7 files.');
    }
    expect(await call('search_text', { pattern: 'secret-value' })).toBe('No matches in 7 files.');
  });

  it('get_definition shows a definition holding a key with the key redacted', async () => {
    for (const symbol of ['inlineKey', 'concatenatedKey']) {
      const definition = await call('get_definition', { symbol });
      expect(definition).toContain(`src/fixtures.ts:${symbol === 'inlineKey' ? 2 : 3} variable ${symbol}`);
      expect(definition).toContain(redaction);
      expectNoKeyMaterial(definition);
    }
  });

  it('search_text and Sandbox.readText redact the same lines', async () => {
    const sandbox = new Sandbox({ root });
    const expected: string[] = [];
    for (const path of await sandbox.listFiles()) {
      const { text } = await sandbox.readText(path);
      text.split('\n').forEach((line, index) => {
        if (line.includes(redaction)) expected.push(`${path}:${index + 1}: ${line}`);
      });
    }
    expect(expected.length).toBeGreaterThan(30);
    const found = await call('search_text', { pattern: redaction, regex: false, max_results: 2000 });
    expect(found.split('\n')).toEqual(expected);
  });
});

describe('git_diff leaves out files holding a private key, on either side', () => {
  let repository: string;
  const committedBody = fakeKeyBody('committed', 20);
  const changedBody = fakeKeyBody('changed', 20);
  const removedBody = fakeKeyBody('removed', 3);
  const addedBody = fakeKeyBody('added', 3);
  const material = [...committedBody, ...changedBody, ...removedBody, ...addedBody, ...keyMaterial];
  const openSsh = (lines: readonly string[]): string =>
    ['-----BEGIN OPENSSH PRIVATE KEY-----', ...lines, '-----END OPENSSH PRIVATE KEY-----', ''].join('\n');
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=a@example.com', ...args], {
      cwd: repository,
      encoding: 'utf8',
    });
  const write = async (relative: string, content: string): Promise<void> => {
    await mkdir(join(repository, relative, '..'), { recursive: true });
    await writeFile(join(repository, relative), content);
  };
  const expectNoMaterial = (output: string): void => {
    for (const line of material) expect(output).not.toContain(line.slice(0, 24));
  };

  beforeAll(async () => {
    repository = await mkdtemp(join(tmpdir(), 'private-key-diff-'));
    git('init', '-q');
    await write('deploy_key', openSsh(committedBody));
    await write('src/fixtures.ts', sourceWithKeys);
    await write('config/app.yaml', yamlWithKey);
    await write('config/legacy.yaml', `user: admin\nkey: |\n${openSsh(removedBody)}`);
    await write('src/new.ts', 'export const empty = "";\n');
    await write('old_key.txt', openSsh(removedBody));
    await write('src/main.ts', 'export const answer = 42;\n');
    git('add', '.');
    git('commit', '-q', '-m', 'First');
    // A commit changing a key's middle lines only: its diff shows no BEGIN line.
    const middle = [...committedBody];
    middle[9] = changedBody[9] ?? '';
    await write('deploy_key', openSsh(middle));
    await write('src/main.ts', 'export const answer = 43;\n');
    git('commit', '-q', '-am', 'Second');
    // Working tree changes: a key's middle line, code and config beside keys, a key removed,
    // a key added, a key file deleted and a new key file staged.
    middle[14] = changedBody[14] ?? '';
    await write('deploy_key', openSsh(middle));
    await write('src/fixtures.ts', sourceWithKeys.replace('Hello', 'Hi'));
    await write('config/app.yaml', yamlWithKey.replace('log_level: info', 'log_level: debug'));
    await write('config/legacy.yaml', 'user: admin\n');
    await write('src/new.ts', `export const key = \`${openSsh(addedBody)}\`;\n`);
    await rm(join(repository, 'old_key.txt'));
    await write('keys/new_deploy_key', openSsh(addedBody));
    git('add', 'keys/new_deploy_key');
    await write('src/main.ts', 'export const answer = 44;\n');
  });
  afterAll(async () => {
    await rm(repository, { recursive: true, force: true });
  });

  it('against HEAD: shows the other changes and names the files it left out', async () => {
    const diff = await call('git_diff', {}, repository);
    expectNoMaterial(diff);
    expect(diff.match(/^diff --git .*$/gm)).toEqual(['diff --git a/src/main.ts b/src/main.ts']);
    expect(diff).toContain('+export const answer = 44;');
    expect(diff.split('\n').at(-1)).toBe(
      '[Not shown: the changes to config/app.yaml, config/legacy.yaml, deploy_key, keys/new_deploy_key, ' +
        'old_key.txt, src/fixtures.ts, src/new.ts, which hold a private key ("-----BEGIN ... PRIVATE KEY-----"). ' +
        'read_file shows their current text with the key redacted.]',
    );
  });

  it('between two commits, and for one path holding a key', async () => {
    for (const base of ['HEAD~1..HEAD', 'HEAD~1...HEAD']) {
      const diff = await call('git_diff', { base }, repository);
      expectNoMaterial(diff);
      expect(diff.match(/^diff --git .*$/gm), base).toEqual(['diff --git a/src/main.ts b/src/main.ts']);
      expect(diff).toContain('[Not shown: the changes to deploy_key, which hold a private key');
    }
    const one = await call('git_diff', { path: 'deploy_key' }, repository);
    expect(one).toMatch(/^\[Not shown: the changes to deploy_key, which hold a private key/);
    expectNoMaterial(one);
  });
});
