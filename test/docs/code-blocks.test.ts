import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const documents = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Snippet {
  readonly document: string;
  readonly line: number;
  readonly code: string;
}

/** Every ```ts block of the docs. Each is a whole module; shell and text blocks are not code. */
function snippets(): Snippet[] {
  const found: Snippet[] = [];
  for (const document of documents) {
    const lines = readFileSync(`${root}${document}`, 'utf8').split('\n');
    for (let index = 0; index < lines.length; index++) {
      if (!/^```(ts|typescript)\s*$/.test(lines[index]!)) continue;
      const start = index + 1;
      let end = start;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      found.push({ document, line: start + 1, code: lines.slice(start, end).join('\n') });
      index = end;
    }
  }
  return found;
}

/** Packages the docs tell the reader to install beside this one, for their own snippets. */
const documentedInstalls = [
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
];

/**
 * A consumer app in a temp folder with the package as `npm pack` makes it: the tarball unpacked into
 * `node_modules/tool-orchestrator`, and beside it only what its package.json declares (dependencies
 * and peer dependencies) plus `@types/node` and {@link documentedInstalls}, linked from this repository's node_modules so nothing is
 * downloaded. Nothing outside the tarball (`src/`, `test/`, the repo's own `dist/`) can resolve.
 */
function createConsumerApp(): string {
  const app = mkdtempSync(join(tmpdir(), 'docs-consumer-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', app], { cwd: root, encoding: 'utf8' }),
  ) as { filename: string }[];
  const installed = join(app, 'node_modules', 'tool-orchestrator');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(app, packed[0]!.filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
  };
  const linked = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    '@types/node',
    // docs/traces.md has the reader install the OpenTelemetry SDK and an exporter for its set-up.
    ...documentedInstalls,
  ];
  for (const name of linked) {
    const target = join(app, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), target, 'dir');
  }
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'docs-consumer', private: true, type: 'module' }),
  );
  return app;
}

describe('code blocks in README.md and docs/ (issue 17 item 15)', () => {
  const all = snippets();
  let app: string;

  beforeAll(() => {
    app = createConsumerApp();
  }, 60_000);
  afterAll(() => {
    rmSync(app, { recursive: true, force: true });
  });

  it('finds the code blocks (the scan works)', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((snippet) => snippet.document)).toEqual(
      expect.arrayContaining(['README.md', 'docs/tools.md', 'docs/traces.md', 'docs/adapters.md']),
    );
  });

  it('import only the package, never files of this repository', () => {
    for (const snippet of all) {
      expect(snippet.code, `${snippet.document}:${snippet.line}`).not.toMatch(/from '\.\.?\//);
    }
  });

  it('type-check in a consumer app against the packed package', () => {
    const files = all.map((snippet, index) => {
      const path = join(app, 'snippets', `snippet-${index}.ts`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, snippet.code);
      return [path, snippet] as const;
    });
    const bySource = new Map(files);
    // What a consumer on Node 20 with ESM would set; strict like this repository.
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts'],
      types: ['node'],
      strict: true,
      noUncheckedIndexedAccess: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
    };
    const program = ts.createProgram([...bySource.keys()], options);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file !== undefined && bySource.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const snippet = bySource.get(diagnostic.file!.fileName)!;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        return `${snippet.document}:${snippet.line + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
    // The package resolved from the unpacked tarball; nothing from this repository's src/, test/ or dist/.
    const loaded = program.getSourceFiles().map((file) => file.fileName);
    expect(
      loaded.some((name) => name.startsWith(join(app, 'node_modules', 'tool-orchestrator', 'dist'))),
    ).toBe(true);
    expect(loaded.filter((name) => /^(src|test|dist)\//.test(relative(root, name)))).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
