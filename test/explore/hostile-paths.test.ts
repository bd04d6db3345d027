import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createCodeTools,
  defaultDenyPatterns,
  maxSandboxPathLength,
  SandboxError,
} from '../../src/explore/index.js';

const context = { signal: new AbortController().signal } as never;
let root: string;

async function write(relative: string, content = 'x\n'): Promise<void> {
  await mkdir(join(root, relative, '..'), { recursive: true });
  await writeFile(join(root, relative), content);
}

async function call(
  name: string,
  input: Record<string, unknown>,
  options: { deny?: readonly string[] } = {},
): Promise<string> {
  const tools = createCodeTools({ root, tools: [name], ...options });
  return (await tools[name]?.execute(input as never, context)) as string;
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hostile-paths-test-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('credential files are denied by default', () => {
  // What a careful user expects never to reach a model: keys, registry and cloud tokens,
  // password files. Each holds the word TOKEN so a search would find it.
  const credentials = [
    '.ssh/config',
    'home/.ssh/known_hosts',
    'id_ed25519',
    'id_ed25519.pub',
    'keys/id_ecdsa',
    'id_dsa',
    '.npmrc',
    'packages/web/.npmrc',
    '.yarnrc.yml',
    '.netrc',
    '_netrc',
    '.pypirc',
    '.aws/credentials',
    '.aws/config',
    '.docker/config.json',
    'ci/.docker/config.json',
    'certs/client.p12',
    'certs/client.pfx',
    'certs/server.key',
    'android/release.jks',
    'android/release.keystore',
    'putty.ppk',
    '.git-credentials',
    '.pgpass',
    '.my.cnf',
    '.gnupg/private-keys-v1.d/key',
    '.kube/config',
    '.azure/accessTokens.json',
    '.config/gcloud/credentials.db',
    '.gem/credentials',
    '.cargo/credentials.toml',
    'infra/terraform.tfstate',
    'infra/terraform.tfstate.backup',
    '.terraformrc',
    '.vault-token',
    '.htpasswd',
    '.s3cfg',
    'vault.kdbx',
    '.config/git/credentials',
    'home/.config/gh/hosts.yml',
    '.config/hub',
    '.terraform.d/credentials.tfrc.json',
    '.m2/settings.xml',
    '.m2/settings-security.xml',
    '.gradle/gradle.properties',
    '.yarnrc',
    '.composer/auth.json',
    '.config/composer/auth.json',
    '.boto',
    '.dockercfg',
    '.mylogin.cnf',
    '.bash_history',
    '.zsh_history',
    '.python_history',
    '.node_repl_history',
    '.psql_history',
    '.zhistory',
    '.histfile',
    '.local/share/fish/fish_history',
    'service-account.json',
    'deploy/service_account.json',
    'serviceAccountKey.json',
    'credentials.json',
    'client_secret_1234.apps.googleusercontent.com.json',
    'vpn/client.ovpn',
  ];
  // Source and project files that merely look alike must stay visible.
  const lookAlikes = [
    '.config/git/config',
    'gradle.properties',
    'locales/en/auth.json',
    'settings.xml',
    'src/app.ts',
    'src/credentials/index.ts',
    'src/keyboard.ts',
    'src/order_history.py',
  ];

  beforeEach(async () => {
    for (const file of credentials) await write(file, 'TOKEN=secret-value\n');
    for (const file of lookAlikes) await write(file, `export const TOKEN_NAME = "${file}";\n`);
  });

  it('list_files shows none of them, and files merely named alike stay visible', async () => {
    expect((await call('list_files', {})).split('\n')).toEqual(lookAlikes);
  });

  it('read_file refuses each one as a secret file', async () => {
    for (const file of credentials) {
      const failure = call('read_file', { path: file });
      await expect(failure, file).rejects.toBeInstanceOf(SandboxError);
      await expect(failure, file).rejects.toThrow(/secret file/);
    }
  });

  it('search_text never matches inside them', async () => {
    expect(await call('search_text', { pattern: 'secret-value' })).toBe(
      `No matches in ${lookAlikes.length} files.`,
    );
  });

  it('git_diff never shows them', async () => {
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', '-f', '.'], { cwd: root });
    execFileSync(
      'git',
      ['-c', 'user.name=Ada', '-c', 'user.email=a@example.com', 'commit', '-q', '-m', 'Add everything'],
      { cwd: root },
    );
    for (const file of [...credentials, 'src/app.ts']) await write(file, 'TOKEN=changed-value\n');
    const diff = await call('git_diff', {});
    expect(diff).toContain('diff --git a/src/app.ts b/src/app.ts');
    expect(diff.match(/^diff --git/gm)).toHaveLength(1);
  });

  it('a caller can opt a file back in by passing the defaults without its pattern', async () => {
    const deny = defaultDenyPatterns.filter((pattern) => pattern !== '.npmrc');
    expect(await call('read_file', { path: '.npmrc' }, { deny })).toContain('TOKEN=secret-value');
    await expect(call('read_file', { path: '.netrc' }, { deny })).rejects.toThrow(/secret file/);
  });
});

describe('very long paths are refused with a clear error', () => {
  const tools = ['read_file', 'list_files', 'search_text', 'git_log', 'git_diff'];

  for (const segments of [5_000, 20_000]) {
    it(`${segments.toLocaleString('en-US')} segments`, async () => {
      const path = 'a/'.repeat(segments) + 'x.ts';
      for (const name of tools) {
        const failure = call(name, { path, pattern: 'x' });
        await expect(failure, name).rejects.toBeInstanceOf(SandboxError);
        await expect(failure, name).rejects.toThrow(
          `is ${path.length.toLocaleString('en-US')} characters long, over the limit of 4,096; pass a shorter repo-relative path.`,
        );
      }
    });
  }

  it('a path at the limit is still looked up (and here not found)', async () => {
    const path = 'a/'.repeat((maxSandboxPathLength - 4) / 2) + 'x.ts';
    expect(path).toHaveLength(maxSandboxPathLength);
    await expect(call('read_file', { path })).rejects.toThrow(/File not found/);
  });
});
