import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// In Node, the root entry resolves (the `node` export condition) to the build with the real
// FileCheckpointStore, which loads Node's file system on first use through import(): that must
// work through import and require alike (run `npx tsup` after changing src/).
const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
let scratch: string;

beforeAll(async () => {
  // An app folder whose node_modules/tool-orchestrator is this package.
  scratch = await mkdtemp(join(tmpdir(), 'file-store-builds-'));
  await mkdir(join(scratch, 'node_modules'));
  await symlink(root, join(scratch, 'node_modules', 'tool-orchestrator'), 'dir');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// A state as the loop saves it (version 1 of the format, no tools), written out by hand.
const body = (dir: string): string => `
const store = new FileCheckpointStore({ dir: ${JSON.stringify(dir)} });
const state = {
  version: 1, runId: 'r1', step: 1, messages: [{ role: 'user', content: 'hi' }], turns: 0,
  usage: emptyUsage, currentTurn: null, pendingApprovals: [], approvalDecisions: {}, stopReason: null,
  result: null, fingerprint: { tools: {} }, strategyState: {},
};
await store.save('r1', state);
await store.save('r1', { ...state, step: 2, messages: [...state.messages, { role: 'assistant', content: 'hello' }] });
const loaded = await new FileCheckpointStore({ dir: ${JSON.stringify(dir)} }).load('r1');
console.log(JSON.stringify({ step: loaded.step, messages: loaded.messages.map((message) => message.content) }));`;

describe('FileCheckpointStore from the built package', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: saves and loads through ${format === 'esm' ? 'import' : 'require'}('tool-orchestrator')`, async () => {
      const dir = join(scratch, format);
      const names = '{ FileCheckpointStore, emptyUsage }';
      const args =
        format === 'esm'
          ? ['--input-type=module', '-e', `import ${names} from 'tool-orchestrator';\n${body(dir)}`]
          : ['-e', `const ${names} = require('tool-orchestrator');\n(async () => {${body(dir)}})();`];
      const { stdout } = await run(process.execPath, args, { cwd: scratch, timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual({ step: 2, messages: ['hi', 'hello'] });
    });
  }
});
