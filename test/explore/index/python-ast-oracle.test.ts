import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';
import { serviceUnavailable } from '../../support/service-availability.js';

type OracleSymbol = [container: string, name: string, kind: 'class' | 'function', start: number, end: number];
type OracleImport = [line: number, specifier: string, names: string[], files: string[]];

const oracleScript = fileURLToPath(new URL('../../support/python-ast-oracle.py', import.meta.url));

/**
 * A real Python package available offline: pip as the system Python ships it (pip/_internal
 * and its vendored packages, ~490 files), else the standard library's `email` package.
 */
function findPackage(): { root: string; name: string } | string {
  const probe = spawnSync(
    'python3',
    [
      '-c',
      'import os\ntry:\n import pip as m\nexcept ImportError:\n import email as m\nprint(os.path.dirname(m.__file__))',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.error !== undefined || probe.status !== 0)
    return `python3 did not run: ${probe.error?.message ?? probe.stderr}`;
  const root = probe.stdout.trim();
  return { root, name: root.slice(root.lastIndexOf('/') + 1) };
}

const found = findPackage();
const unavailable = typeof found === 'string' ? serviceUnavailable('python3', found) : undefined;

describe.skipIf(unavailable !== undefined)("Python symbols and imports against Python's own ast", () => {
  it('finds 100% of functions and classes with exact start and end lines and nesting, and resolves imports within the package', async () => {
    if (typeof found === 'string') return;
    // The files the index sees: the sandbox's default excludes (`build/`, `dist/`, ...) hide some.
    const listed = await new Sandbox({ root: found.root }).listFiles();
    const files = listed.filter((path) => path.endsWith('.py'));
    const visible = new Set(files);
    const run = spawnSync('python3', [oracleScript, found.root, found.name], {
      input: files.join('\n'),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const oracle = JSON.parse(run.stdout) as {
      symbols: Record<string, OracleSymbol[]>;
      imports: Record<string, OracleImport[]>;
    };
    const index = new CodeIndex({ root: found.root });
    let expectedSymbols = 0;
    const missing: string[] = [];
    const unexpected: string[] = [];
    let expectedEdges = 0;
    const unresolved: string[] = [];
    for (const [path, symbols] of Object.entries(oracle.symbols)) {
      const ours = (await index.symbols(path)).symbols.filter((symbol) =>
        ['class', 'function', 'method'].includes(symbol.kind),
      );
      const key = (container: string, name: string, kind: string, start: number, end: number): string =>
        `${path}: ${container === '' ? '' : `${container}.`}${name} ${kind} ${start}-${end}`;
      const ourKeys = new Set(
        ours.map((symbol) =>
          key(
            symbol.container ?? '',
            symbol.name,
            symbol.kind === 'class' ? 'class' : 'function',
            symbol.startLine,
            symbol.endLine,
          ),
        ),
      );
      const theirKeys = new Set(symbols.map((symbol) => key(...symbol)));
      expectedSymbols += symbols.length;
      missing.push(...[...theirKeys].filter((item) => !ourKeys.has(item)));
      unexpected.push(...[...ourKeys].filter((item) => !theirKeys.has(item)));
      const { imports } = await index.imports(path);
      for (const [line, specifier, , named] of oracle.imports[path] ?? []) {
        const expectedFiles = named.filter((file) => visible.has(file));
        if (expectedFiles.length === 0) continue;
        expectedEdges += expectedFiles.length;
        const record = imports.find(
          (candidate) => candidate.line === line && candidate.specifier === specifier,
        );
        const resolved = record?.resolvedFiles ?? (record?.resolved === undefined ? [] : [record.resolved]);
        for (const file of expectedFiles)
          if (!resolved.includes(file)) unresolved.push(`${path}:${line} ${specifier} -> ${file}`);
      }
    }
    console.log(
      `python ast oracle on ${found.root}: ${Object.keys(oracle.symbols).length} files, ${expectedSymbols} functions and classes, ` +
        `${expectedSymbols - missing.length} found exactly, ${unexpected.length} not in ast; ` +
        `${expectedEdges - unresolved.length}/${expectedEdges} in-package import edges resolved`,
    );
    expect(expectedSymbols).toBeGreaterThan(100);
    expect(missing.slice(0, 20)).toEqual([]);
    expect(unexpected.slice(0, 20)).toEqual([]);
    expect(expectedEdges).toBeGreaterThan(20);
    expect(unresolved.slice(0, 20)).toEqual([]);
  }, 120_000);
});
