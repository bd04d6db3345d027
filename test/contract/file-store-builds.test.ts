import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// FileCheckpointStore sits in the runtime-neutral root entry and loads Node's file system on first
// use through import(): that must work from both builds of dist/ (run `npx tsup` after changing src/).
const run = promisify(execFile);
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'file-store-builds-'));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

const body = (dir: string): string => `
const store = new FileCheckpointStore({ dir: ${JSON.stringify(dir)} });
const state = {
  version: runStateVersion, runId: 'r1', step: 1, messages: [{ role: 'user', content: 'hi' }], turns: 0,
  usage: emptyUsage, currentTurn: null, pendingApprovals: [], approvalDecisions: {}, stopReason: null,
  result: null, fingerprint: fingerprintRun({ tools: [] }), strategyState: {},
};
await store.save('r1', state);
await store.save('r1', { ...state, step: 2, messages: [...state.messages, { role: 'assistant', content: 'hello' }] });
const loaded = await new FileCheckpointStore({ dir: ${JSON.stringify(dir)} }).load('r1');
console.log(JSON.stringify({ step: loaded.step, messages: loaded.messages.map((message) => message.content) }));`;

describe('FileCheckpointStore from the built package', () => {
  for (const format of ['esm', 'cjs'] as const) {
    it(`${format}: saves and loads through dist/index.${format === 'esm' ? 'js' : 'cjs'}`, async () => {
      const dir = join(scratch, format);
      const names = '{ FileCheckpointStore, emptyUsage, fingerprintRun, runStateVersion }';
      const args =
        format === 'esm'
          ? [
              '--input-type=module',
              '-e',
              `import ${names} from ${JSON.stringify(`${dist}index.js`)};\n${body(dir)}`,
            ]
          : [
              '-e',
              `const ${names} = require(${JSON.stringify(`${dist}index.cjs`)});\n(async () => {${body(dir)}})();`,
            ];
      const { stdout } = await run(process.execPath, args, { timeout: 30_000 });
      expect(JSON.parse(stdout)).toEqual({ step: 2, messages: ['hi', 'hello'] });
    });
  }
});
