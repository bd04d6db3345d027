import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The built CLI (`npm run build` first), as an MCP client reaches it: a home-like folder of
// credential stores and a private key under a name the deny list cannot know.
const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
const keyBody = ['c2VydmUtY2xpLWZha2Uta2V5LWJvZHktbGluZS1vbmUtbm90LWEtcmVhbC1rZXk', 'c2Vjb25kLWZha2UtbGluZQ'];
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
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'serve-cli-credentials-'));
  for (const file of credentialFiles) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), 'token = ghp_doNotLeakThisToken\n');
  }
  await writeFile(
    join(root, 'deploy_key'),
    ['-----BEGIN OPENSSH PRIVATE KEY-----', ...keyBody, '-----END OPENSSH PRIVATE KEY-----', ''].join('\n'),
  );
  await writeFile(join(root, 'notes.txt'), 'nothing secret here\n');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const text = (result: { content?: unknown }): string =>
  (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');

describe('tool-orchestrator mcp serve keeps credentials from the client', () => {
  it('lists, reads and searches no credential store and no key material', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cli, 'mcp', 'serve', '--repo', root],
      stderr: 'pipe',
    });
    const client = new Client({ name: 'serve-cli-credentials-test', version: '1.0.0' });
    await client.connect(transport, { timeout: 15_000 });
    try {
      const call = async (name: string, input: Record<string, unknown>): Promise<string> =>
        text(await client.callTool({ name, arguments: input }));
      expect(await call('list_files', {})).toBe('deploy_key\nnotes.txt');
      for (const file of credentialFiles)
        expect(await call('read_file', { path: file }), file).toMatch(/secret file/);
      expect(await call('search_text', { pattern: 'doNotLeak' })).toBe('No matches in 2 files.');
      const key = await call('read_file', { path: 'deploy_key' });
      expect(key).toContain('1\t[private key redacted]');
      expect(await call('search_text', { pattern: 'BEGIN|c2Vy' })).toBe('No matches in 2 files.');
      for (const line of keyBody) expect(key).not.toContain(line);
    } finally {
      await client.close();
    }
  });
});
