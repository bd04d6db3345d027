import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useRedisServer } from '../support/redis-fixture.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const redis = useRedisServer();

describe('examples/scale-out.ts', () => {
  it(
    'runs as written against a real Redis, and docs/scale-out.md shows it as it is',
    { timeout: 60_000 },
    async (context) => {
      if (redis.skipReason !== undefined) context.skip(redis.skipReason);
      const { stdout, stderr } = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        execFile(
          process.execPath,
          [tsx, join(root, 'examples', 'scale-out.ts'), String(redis.server.port)],
          { cwd: root, timeout: 50_000 },
          (error, out, err) =>
            error === null
              ? resolve({ stdout: out, stderr: err })
              : reject(new Error(`${String(error)}\n${err}`)),
        );
      });
      expect(stderr).toBe('');
      expect(stdout).toBe(
        [
          'A-1: {"orderId":"A-1","status":"shipped"}',
          'awaiting_approval: refund {"orderId":"B-2"}',
          'B-2: {"orderId":"B-2","status":"shipped"} {"refunded":"B-2","idempotencyKey":"support-B-2:call_refund"}',
          '',
        ].join('\n'),
      );
      const docs = await readFile(join(root, 'docs', 'scale-out.md'), 'utf8');
      const example = await readFile(join(root, 'examples', 'scale-out.ts'), 'utf8');
      expect(docs).toContain(`\`\`\`ts\n${example}\`\`\``);
    },
  );
});
