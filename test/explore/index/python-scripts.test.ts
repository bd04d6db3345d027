import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { serviceUnavailable } from '../../support/service-availability.js';

// Scripts beside their modules (pysrc/main.py imports pysrc/package.py and pysrc/utils.py), a
// same-named package and module at the root (package/, utils.py) for app.py, and a third
// `build_dist_index` in tools/formatting.py: the interpreter tells which each import and use means.
const root = fileURLToPath(new URL('../../fixtures/code-index/python-scripts', import.meta.url));
const oracleScript = fileURLToPath(new URL('../../support/python-name-oracle.py', import.meta.url));
const astOracleScript = fileURLToPath(new URL('../../support/python-ast-oracle.py', import.meta.url));
const scripts = [
  'app.py',
  'pysrc/main.py',
  'pysrc/helpers.py',
  'pysrc/utils.py',
  'pysrc/package.py',
  'utils.py',
];

interface Oracle {
  readonly imports: Record<string, [line: number, module: string, file: string | null][]>;
  readonly uses: Record<string, [line: number, qualifier: string, declaration: string][]>;
}

function askPython(name: string): Oracle | string {
  const run = spawnSync('python3', ['-B', oracleScript, root, name], {
    input: scripts.join('\n'),
    encoding: 'utf8',
    timeout: 20_000,
  });
  if (run.error !== undefined || run.status !== 0)
    return `python3 did not run: ${run.error?.message ?? run.stderr}`;
  return JSON.parse(run.stdout) as Oracle;
}

const probe = askPython('Package');
const unavailable = typeof probe === 'string' ? serviceUnavailable('python3', probe) : undefined;

describe.skipIf(unavailable !== undefined)('Python scripts, checked against the interpreter', () => {
  const index = new CodeIndex({ root });

  it("resolves absolute imports from the script's own folder first, as sys.path does", async () => {
    if (typeof probe === 'string') return;
    let checked = 0;
    for (const [path, records] of Object.entries(probe.imports)) {
      const { imports } = await index.imports(path);
      for (const [line, module, file] of records) {
        if (file === null) continue;
        checked += 1;
        const ours = imports.find((record) => record.line === line && record.specifier === module);
        expect(`${path}:${line} ${module} -> ${ours?.resolved ?? 'nothing'}`).toBe(
          `${path}:${line} ${module} -> ${file}`,
        );
      }
    }
    expect(checked).toBe(7);
  });

  for (const name of ['Package', 'build_dist_index']) {
    it(`${name}: a definition asked from a file that uses it is the one the interpreter reaches`, async () => {
      const oracle = askPython(name);
      if (typeof oracle === 'string') throw new Error(oracle);
      let checked = 0;
      for (const [path, uses] of Object.entries(oracle.uses)) {
        const found = (await index.definitions(name, { path })).map(
          (definition) => `${definition.path}:${definition.line}`,
        );
        // One declaration behind every use of the file: it comes first. Several: each is listed.
        const declarations = new Set(uses.map(([, , declaration]) => declaration));
        if (declarations.size === 1) expect(`${path}: ${found[0]}`).toBe(`${path}: ${[...declarations][0]}`);
        else expect(found).toEqual(expect.arrayContaining([...declarations]));
        for (const [, qualifier, declaration] of uses) {
          checked += 1;
          if (qualifier === '') continue;
          // `utils.build_dist_index` names the function of the module `utils` is in that file.
          const qualified = await index.definitions(`${qualifier}.${name}`, { path });
          expect(qualified.map((definition) => `${definition.path}:${definition.line}`)).toEqual([
            declaration,
          ]);
        }
      }
      expect(checked).toBeGreaterThanOrEqual(4);
    });

    it(`${name}: the references of each declaration are the uses the interpreter resolves to it`, async () => {
      const oracle = askPython(name);
      if (typeof oracle === 'string') throw new Error(oracle);
      const byDeclaration = new Map<string, string[]>();
      for (const [path, uses] of Object.entries(oracle.uses))
        for (const [line, , declaration] of uses)
          byDeclaration.set(declaration, [...(byDeclaration.get(declaration) ?? []), `${path}:${line}`]);
      expect(byDeclaration.size).toBeGreaterThanOrEqual(2);
      for (const [declaration, expected] of byDeclaration) {
        const [path = ''] = declaration.split(':');
        const result = await index.references(name, { path });
        expect(result.definitions.map((found) => `${found.path}:${found.line}`)).toEqual([declaration]);
        const ours = result.files.flatMap((file) =>
          file.references.map((found) => `${file.path}:${found.line}`),
        );
        expect(ours, declaration).toEqual([...expected].sort());
      }
    });
  }

  it('get_structure nests functions inside methods (and inside those) as ast does', async () => {
    const paths = ['pysrc/package.py', 'pysrc/utils.py'];
    const run = spawnSync('python3', [astOracleScript, root, 'python-scripts'], {
      input: paths.join('\n'),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const { symbols } = JSON.parse(run.stdout) as {
      symbols: Record<string, [container: string, name: string, kind: string, start: number, end: number][]>;
    };
    interface Entry {
      readonly name: string;
      readonly startLine: number;
      readonly endLine: number;
      readonly members?: readonly Entry[];
    }
    const flatten = (entries: readonly Entry[], container: string): string[] =>
      entries.flatMap((entry) => [
        `${container}|${entry.name} ${entry.startLine}-${entry.endLine}`,
        ...flatten(entry.members ?? [], container === '' ? entry.name : `${container}.${entry.name}`),
      ]);
    let nested = 0;
    for (const path of paths) {
      const expected = (symbols[path] ?? []).map(
        ([container, name, , start, end]) => `${container}|${name} ${start}-${end}`,
      );
      nested += expected.filter((entry) => entry.split('|')[0]?.includes('.') === true).length;
      const { outline } = await index.structure(path);
      expect(flatten(outline, '').sort(), path).toEqual(expected.sort());
    }
    expect(nested).toBeGreaterThanOrEqual(2);
  });
});
