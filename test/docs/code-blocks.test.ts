import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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

describe('code blocks in README.md and docs/', () => {
  const all = snippets();

  it('finds the code blocks (the scan works)', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((snippet) => snippet.document)).toEqual(
      expect.arrayContaining(['README.md', 'docs/tools.md', 'docs/traces.md']),
    );
  });

  it('type-check against the built package', () => {
    const configFile = ts.readConfigFile(`${root}tsconfig.json`, (path) => ts.sys.readFile(path));
    const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, root);
    // Virtual files beside the docs, so `tool-orchestrator` resolves to this package's dist/ types.
    const virtual = new Map(all.map((snippet, index) => [`${root}docs/__snippet_${index}.ts`, snippet]));
    const host = ts.createCompilerHost({ ...options, noEmit: true });
    const readFile = host.readFile.bind(host);
    const fileExists = host.fileExists.bind(host);
    const getSourceFile = host.getSourceFile.bind(host);
    host.readFile = (path) => virtual.get(path)?.code ?? readFile(path);
    host.fileExists = (path) => virtual.has(path) || fileExists(path);
    host.getSourceFile = (path, language, onError, shouldCreate) => {
      const snippet = virtual.get(path);
      return snippet === undefined
        ? getSourceFile(path, language, onError, shouldCreate)
        : ts.createSourceFile(path, snippet.code, language);
    };
    const program = ts.createProgram(
      [...virtual.keys()],
      { ...options, noEmit: true, noUnusedLocals: false },
      host,
    );
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file !== undefined && virtual.has(diagnostic.file.fileName))
      .map((diagnostic) => {
        const snippet = virtual.get(diagnostic.file!.fileName)!;
        const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
        return `${snippet.document}:${snippet.line + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
      });
    expect(problems).toEqual([]);
  }, 120_000);
});
