import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CodeIndex } from '../../../src/explore/index/code-index.js';

/** Exported axios symbols the index is scored on: each is declared at top level in lib/. */
const sample = [
  'AxiosError',
  'AxiosHeaders',
  'CanceledError',
  'CancelToken',
  'Axios',
  'InterceptorManager',
  'mergeConfig',
  'buildURL',
  'dispatchRequest',
  'settle',
  'transformData',
  'buildFullPath',
  'combineURLs',
  'isAbsoluteURL',
  'bind',
  'spread',
  'isAxiosError',
  'isCancel',
  'toFormData',
  'formDataToJSON',
  'fromDataURI',
  'parseProtocol',
  'resolveConfig',
  'formDataToBlob',
  'estimateDataURLDecodedBytes',
  'deprecatedMethod',
  'createMultipartBody',
  'setFormDataHeaders',
  'normalizeURLForProtocolCheck',
  'shouldBypassProxy',
  'assertParamsAcyclic',
  'toURLEncodedForm',
  'AxiosURLSearchParams',
  'progressEventReducer',
  'trackStream',
  'sanitizeHeaderValue',
  'VERSION',
  'HttpStatusCode',
];

const axiosRoot = fileURLToPath(new URL('../../../node_modules/axios', import.meta.url));

function walk(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return walk(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

/** The oracle: a fresh language service over axios lib/, with its own host, reading straight from disk. */
function createOracle() {
  const files = walk(join(axiosRoot, 'lib'));
  const known = new Set(files);
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: false,
    noLib: true,
    noEmit: true,
    types: [],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
  };
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => files,
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) =>
      known.has(name) ? ts.ScriptSnapshot.fromString(readFileSync(name, 'utf8')) : undefined,
    getCurrentDirectory: () => axiosRoot,
    getCompilationSettings: () => options,
    getDefaultLibFileName: () => '/none/lib.d.ts',
    fileExists: (name) => known.has(name),
    readFile: (name) => (known.has(name) ? readFileSync(name, 'utf8') : undefined),
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const program = service.getProgram();
  if (program === undefined) throw new Error('oracle program not built');
  const location = (fileName: string, position: number): string => {
    const sourceFile = program.getSourceFile(fileName);
    const line = (sourceFile?.getLineAndCharacterOfPosition(position).line ?? -1) + 1;
    return `${relative(axiosRoot, fileName).split('\\').join('/')}:${line}`;
  };
  /** Positions of top-level declarations named `name` (functions, classes, variables). */
  const declarations = (name: string): { fileName: string; position: number }[] =>
    files.flatMap((fileName) => {
      const sourceFile = program.getSourceFile(fileName);
      if (sourceFile === undefined) return [];
      return sourceFile.statements.flatMap((statement) => {
        const names: ts.Identifier[] = [];
        if ((ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) && statement.name)
          names.push(statement.name);
        if (ts.isVariableStatement(statement)) {
          for (const declaration of statement.declarationList.declarations) {
            if (ts.isIdentifier(declaration.name)) names.push(declaration.name);
          }
        }
        return names
          .filter((identifier) => identifier.text === name)
          .map((identifier) => ({ fileName, position: identifier.getStart(sourceFile) }));
      });
    });
  return {
    definitions(name: string): Set<string> {
      const result = new Set<string>();
      for (const { fileName, position } of declarations(name)) {
        for (const info of service.getDefinitionAtPosition(fileName, position) ?? []) {
          result.add(location(info.fileName, info.textSpan.start));
        }
      }
      return result;
    },
    references(name: string): Set<string> {
      const result = new Set<string>();
      for (const { fileName, position } of declarations(name)) {
        for (const referenced of service.findReferences(fileName, position) ?? []) {
          for (const entry of referenced.references) {
            if (!entry.isDefinition) result.add(location(entry.fileName, entry.textSpan.start));
          }
        }
      }
      return result;
    },
  };
}

function agreement(
  expected: ReadonlySet<string>,
  actual: ReadonlySet<string>,
): { shared: number; union: number } {
  const shared = [...expected].filter((item) => actual.has(item)).length;
  return { shared, union: expected.size + actual.size - shared };
}

describe('CodeIndex accuracy against a language-service oracle on axios lib/', () => {
  it(`agrees on definitions and references of ${sample.length} exported symbols on at least 95% of locations`, async () => {
    expect(sample.length).toBeGreaterThanOrEqual(30);
    const oracle = createOracle();
    const index = new CodeIndex({ root: axiosRoot, include: ['lib/**'] });
    let shared = 0;
    let union = 0;
    const disagreements: string[] = [];
    for (const name of sample) {
      const expectedDefinitions = oracle.definitions(name);
      const expectedReferences = oracle.references(name);
      expect(expectedDefinitions.size, `oracle finds ${name}`).toBeGreaterThan(0);
      const actualDefinitions = new Set(
        (await index.definitions(name)).map((definition) => `${definition.path}:${definition.line}`),
      );
      const result = await index.references(name, { maxReferences: 100_000 });
      const actualReferences = new Set(
        result.files.flatMap((file) => file.references.map((reference) => `${file.path}:${reference.line}`)),
      );
      for (const [expected, actual] of [
        [expectedDefinitions, actualDefinitions],
        [expectedReferences, actualReferences],
      ] as const) {
        const score = agreement(expected, actual);
        shared += score.shared;
        union += score.union;
        if (score.shared !== score.union) disagreements.push(`${name}: ${score.shared}/${score.union}`);
      }
    }
    const ratio = shared / union;
    console.log(
      `definition+reference agreement with the oracle: ${(ratio * 100).toFixed(1)}% (${shared}/${union} locations)` +
        (disagreements.length > 0 ? `; partial: ${disagreements.join(', ')}` : ''),
    );
    expect(union).toBeGreaterThan(300);
    expect(ratio).toBeGreaterThanOrEqual(0.95);
  });
});
