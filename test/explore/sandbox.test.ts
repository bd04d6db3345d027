import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileReadError, Sandbox, SandboxError } from '../../src/explore/index.js';
import { InvalidArgumentError } from '../../src/errors/invalid-argument-error.js';

let root: string;
let outside: string;

async function write(relative: string, content: string | Uint8Array = 'x\n'): Promise<void> {
  await mkdir(join(root, relative, '..'), { recursive: true });
  await writeFile(join(root, relative), content);
}

function violation(action: () => unknown): SandboxError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe('sandbox_violation');
    return error as SandboxError;
  }
  throw new Error('expected a SandboxError');
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandbox-test-'));
  outside = await mkdtemp(join(tmpdir(), 'sandbox-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'outside secret\n');
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('Sandbox.resolve', () => {
  it('resolves repo-relative paths and "." inside the root', async () => {
    await write('src/a.ts');
    const sandbox = new Sandbox({ root });
    expect(sandbox.resolve('src/a.ts')).toBe(join(sandbox.root, 'src/a.ts'));
    expect(sandbox.resolve('.')).toBe(sandbox.root);
    expect(sandbox.relative(sandbox.resolve('src/../src/a.ts'))).toBe('src/a.ts');
  });

  it('refuses ".." traversal and names the path', () => {
    const sandbox = new Sandbox({ root });
    const error = violation(() => sandbox.resolve('../../etc/passwd'));
    expect(error.path).toBe('../../etc/passwd');
    expect(error.message).toMatch(/outside the repository root/);
    violation(() => sandbox.resolve('src/../../x'));
  });

  it('refuses absolute paths', () => {
    const sandbox = new Sandbox({ root });
    expect(violation(() => sandbox.resolve('/etc/passwd')).message).toMatch(/absolute; pass a path relative/);
    violation(() => sandbox.resolve(join(root, 'a.ts')));
  });

  it('refuses symlinks leading outside the root, to files and through directories', async () => {
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    await symlink(outside, join(root, 'linked-dir'));
    const sandbox = new Sandbox({ root });
    expect(violation(() => sandbox.resolve('link.txt')).message).toMatch(/symlink leading outside/);
    violation(() => sandbox.resolve('linked-dir/secret.txt'));
    await expect(sandbox.readText('link.txt')).rejects.toBeInstanceOf(SandboxError);
    expect(await sandbox.listFiles()).not.toContain('link.txt');
  });

  it('allows symlinks that stay inside the root', async () => {
    await write('real.txt', 'hello\n');
    await symlink(join(root, 'real.txt'), join(root, 'alias.txt'));
    const sandbox = new Sandbox({ root });
    expect((await sandbox.readText('alias.txt')).text).toBe('hello\n');
  });

  it('denies secret files by default, including through a symlink', async () => {
    for (const file of ['.env', '.env.local', 'id_rsa', 'config/server.pem', 'keys/api.key'])
      await write(file);
    await symlink(join(root, '.env'), join(root, 'innocent.txt'));
    const sandbox = new Sandbox({ root });
    for (const file of [
      '.env',
      '.env.local',
      'id_rsa',
      'config/server.pem',
      'keys/api.key',
      'innocent.txt',
    ]) {
      expect(violation(() => sandbox.resolve(file)).message).toMatch(/secret file/);
    }
    expect(await sandbox.listFiles()).toEqual([]);
  });

  it('denies files inside a denied directory, not only denied names', async () => {
    await write('.env/production', 'TOKEN=1\n');
    await write('certs/old.key/notes.txt');
    const sandbox = new Sandbox({ root });
    expect(violation(() => sandbox.resolve('.env/production')).message).toMatch(/secret file/);
    expect(violation(() => sandbox.resolve('certs/old.key/notes.txt')).message).toMatch(/secret file/);
    await expect(sandbox.readText('.env/production')).rejects.toThrow(/secret file/);
    expect(sandbox.isVisible('.env/production')).toBe(false);
  });

  it('denies secret files whatever the case of their names', async () => {
    for (const file of ['.ENV', 'SERVER.PEM', 'keys/id_RSA', 'keys/Api.Key', 'src/a.ts']) await write(file);
    const sandbox = new Sandbox({ root });
    for (const file of ['.ENV', 'SERVER.PEM', 'keys/id_RSA', 'keys/Api.Key']) {
      expect(violation(() => sandbox.resolve(file)).message).toMatch(/secret file/);
    }
    expect(await sandbox.listFiles()).toEqual(['src/a.ts']);
  });

  it('denies .git by default, so remote URLs in .git/config cannot be read', async () => {
    await write('.git/config', '[remote "origin"]\n\turl = https://user:token@example.com/repo.git\n');
    await write('sub/.git/config');
    const sandbox = new Sandbox({ root });
    for (const path of ['.git', '.git/config', 'sub/.git/config', '.GIT/config']) {
      expect(violation(() => sandbox.resolve(path)).message).toMatch(/secret file/);
    }
    await expect(sandbox.listFiles({ path: '.git' })).rejects.toThrow(/secret file/);
  });

  it('lets the caller override the deny list', async () => {
    await write('.env', 'A=1\n');
    const sandbox = new Sandbox({ root, deny: ['*.secret'] });
    expect((await sandbox.readText('.env')).text).toBe('A=1\n');
    expect(sandbox.deny).toEqual(['*.secret']);
  });

  it('rejects a root that is not a directory', () => {
    expect(() => new Sandbox({ root: join(root, 'missing') })).toThrow(InvalidArgumentError);
  });
});

describe('Sandbox.listFiles', () => {
  it('honours root and nested .gitignore files, with negation, and hides default excludes', async () => {
    await write('.gitignore', '*.log\ngenerated/\n');
    await write('src/.gitignore', '!keep.log\nlocal.ts\n');
    for (const file of [
      'a.ts',
      'debug.log',
      'generated/x.ts',
      'src/keep.log',
      'src/other.log',
      'src/local.ts',
      'src/b.ts',
    ]) {
      await write(file);
    }
    for (const file of [
      'node_modules/p/index.js',
      'dist/out.js',
      '.git/HEAD',
      'coverage/x.json',
      'src/node_modules/q.js',
    ]) {
      await write(file);
    }
    const sandbox = new Sandbox({ root });
    expect(await sandbox.listFiles()).toEqual([
      '.gitignore',
      'a.ts',
      'src/.gitignore',
      'src/b.ts',
      'src/keep.log',
    ]);
    expect(await sandbox.listFiles({ path: 'src', pattern: '*.ts' })).toEqual(['src/b.ts']);
    expect(sandbox.isVisible('src/b.ts')).toBe(true);
    expect(sandbox.isVisible('generated/x.ts')).toBe(false);
    expect(sandbox.isVisible('src/other.log')).toBe(false);
    expect(sandbox.isVisible('node_modules/p/index.js')).toBe(false);
  });

  it('applies default excludes only below the root, so a package inside node_modules can be the root', async () => {
    const sandbox = new Sandbox({ root: 'node_modules/axios' });
    const files = await sandbox.listFiles();
    expect(files).toContain('lib/axios.js');
    expect(files).toContain('package.json');
    expect(files.truncated).toBe(false);
    expect([...files].sort()).toEqual([...files]);
  });

  it('applies include and exclude globs, and refuses reads outside them', async () => {
    for (const file of ['src/a.ts', 'src/a.test.ts', 'docs/readme.md']) await write(file);
    const sandbox = new Sandbox({ root, include: ['src/**'], exclude: ['*.test.ts'] });
    expect(await sandbox.listFiles()).toEqual(['src/a.ts']);
    await expect(sandbox.readText('docs/readme.md')).rejects.toThrow(/include\/exclude/);
    await expect(sandbox.readText('src/a.test.ts')).rejects.toBeInstanceOf(SandboxError);
  });

  it('checks a symlinked directory by its real path too: deny and exclude cannot be dodged', async () => {
    await write('config/secrets/db.txt', 'DBPASS=hunter2\n');
    await write('config/public/readme.txt');
    await symlink(join(root, 'config/secrets'), join(root, 'lnk'), 'dir');
    await symlink(join(root, 'config'), join(root, 'all'), 'dir');
    await symlink(join(root, 'config/public'), join(root, 'pub'), 'dir');

    const denying = new Sandbox({ root, deny: ['config/secrets/*.txt'] });
    expect(await denying.listFiles({ path: 'lnk' })).toEqual([]);
    expect(await denying.listFiles({ path: 'all' })).toEqual(['all/public/readme.txt']);
    expect(await denying.listFiles({ path: 'all/secrets' })).toEqual([]);
    expect(denying.isVisible('lnk/db.txt')).toBe(false);
    expect(violation(() => denying.resolve('lnk/db.txt')).message).toMatch(/secret file/);
    // A link to an allowed directory still lists under the link's name.
    expect(await denying.listFiles({ path: 'pub' })).toEqual(['pub/readme.txt']);

    const excluding = new Sandbox({ root, exclude: ['config/**'] });
    await expect(excluding.readText('lnk/db.txt')).rejects.toThrow(/include\/exclude/);
    await expect(excluding.readLines('all/secrets/db.txt', { startLine: 1, endLine: 1 })).rejects.toThrow(
      /include\/exclude/,
    );
    expect(await excluding.listFiles({ path: 'lnk' })).toEqual([]);
    expect(excluding.isVisible('lnk/db.txt')).toBe(false);
    expect(await excluding.listFiles()).toEqual([]);
  });

  it('refuses reads below an excluded directory, as listings hide them', async () => {
    await write('vendor/lib.js');
    await write('src/a.ts');
    const sandbox = new Sandbox({ root, exclude: ['vendor'] });
    expect(await sandbox.listFiles()).toEqual(['src/a.ts']);
    expect(await sandbox.listFiles({ path: 'vendor' })).toEqual([]);
    await expect(sandbox.readText('vendor/lib.js')).rejects.toThrow(/include\/exclude/);
  });

  it('stops at maxFiles and flags the listing truncated', async () => {
    for (let index = 0; index < 30; index += 1) await write(`f${String(index).padStart(2, '0')}.txt`);
    const sandbox = new Sandbox({ root, limits: { maxFiles: 10 } });
    const files = await sandbox.listFiles();
    expect(files).toHaveLength(10);
    expect(files.truncated).toBe(true);
  });
});

describe('Sandbox.readText and stat', () => {
  it('reads text with size and mtime, and decodes invalid UTF-8 with replacement characters', async () => {
    await write('bad.txt', new Uint8Array([0x68, 0x69, 0xff, 0xfe, 0x21]));
    const sandbox = new Sandbox({ root });
    const file = await sandbox.readText('bad.txt');
    expect(file.text).toBe('hi\uFFFD\uFFFD!');
    expect(file).toMatchObject({ size: 5, path: 'bad.txt' });
    expect(file.mtimeMs).toBeGreaterThan(0);
  });

  it('refuses binary files with a clear message', async () => {
    await write('image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    const sandbox = new Sandbox({ root });
    const error = await sandbox.readText('image.png').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FileReadError);
    expect((error as FileReadError).code).toBe('binary_file');
    expect((error as Error).message).toMatch(/"image.png" is binary/);
  });

  it('refuses files over maxFileBytes and says how to read a range', async () => {
    await write('big.txt', 'a'.repeat(2048));
    const sandbox = new Sandbox({ root, limits: { maxFileBytes: 1024 } });
    const error = await sandbox.readText('big.txt').catch((caught: unknown) => caught);
    expect((error as FileReadError).code).toBe('file_too_large');
    expect((error as Error).message).toMatch(/2 KiB, over the 1 KiB limit.*start_line and end_line/);
    expect((await sandbox.readText('big.txt', { maxBytes: 4096 })).size).toBe(2048);
  });

  it('reports missing paths and directories', async () => {
    await write('src/a.ts');
    const sandbox = new Sandbox({ root });
    await expect(sandbox.readText('nope.ts')).rejects.toMatchObject({ code: 'file_not_found' });
    await expect(sandbox.readText('src')).rejects.toMatchObject({ code: 'not_a_file' });
    await expect(sandbox.readText('src')).rejects.toThrow(/is a directory/);
    expect(await sandbox.stat('src')).toMatchObject({ isDirectory: true, isFile: false });
    expect(await sandbox.stat('src/a.ts')).toMatchObject({ isDirectory: false, isFile: true, size: 2 });
  });

  it('reads the same texts and refuses the same files synchronously (readTextSync) as readText', async () => {
    await write('src/a.ts', 'export const a = 1;\n');
    await write('bad.txt', new Uint8Array([0x68, 0x69, 0xff, 0x21]));
    await write('image.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await write('big.txt', 'a'.repeat(2048));
    await write(
      'key.txt',
      'before\n-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----\nafter\n',
    );
    await write('.env', 'A=1\n');
    await write('vendor/lib.js', 'x\n');
    await symlink(join(outside, 'secret.txt'), join(root, 'link.txt'));
    await symlink('src/a.ts', join(root, 'alias.ts'));
    const sandbox = new Sandbox({ root, exclude: ['vendor/**'], limits: { maxFileBytes: 1024 } });
    const outcome = (read: () => unknown): unknown => {
      try {
        return read();
      } catch (error) {
        return {
          name: (error as Error).name,
          code: (error as { code?: string }).code,
          message: (error as Error).message,
        };
      }
    };
    const paths = [
      'src/a.ts',
      'bad.txt',
      'image.png',
      'big.txt',
      'key.txt',
      '.env',
      'vendor/lib.js',
      'link.txt',
      'alias.ts',
      'nope.ts',
      'src',
      '../x',
    ];
    for (const path of paths) {
      const asynchronous = await sandbox.readText(path).then(
        (file) => file,
        (error: unknown) =>
          outcome(() => {
            throw error;
          }),
      );
      expect(
        outcome(() => sandbox.readTextSync(path)),
        path,
      ).toEqual(asynchronous);
    }
    expect(sandbox.readTextSync('key.txt').text).toContain('[private key redacted]');
    expect(sandbox.readTextSync('big.txt', { maxBytes: 4096 }).size).toBe(2048);
  });
});
