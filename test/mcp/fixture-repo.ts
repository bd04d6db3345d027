import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small TypeScript repository in a temp folder, with a secret the sandbox must refuse. */
export async function createFixtureRepo(): Promise<{ root: string; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'mcp-fixture-'));
  await mkdir(join(root, 'src'));
  await mkdir(join(root, 'generated'));
  await writeFile(
    join(root, 'src', 'math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  );
  await writeFile(
    join(root, 'src', 'main.ts'),
    "import { add } from './math';\n\nexport const total = add(2, 3) + add(4, 5);\n",
  );
  await writeFile(join(root, 'generated', 'schema.ts'), 'export const generated = true;\n');
  await writeFile(join(root, '.env'), 'API_KEY=do-not-leak\n');
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}
