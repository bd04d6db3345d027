import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCodeTools } from '../../../src/explore/create-code-tools.js';
import { CodeIndex } from '../../../src/explore/index/code-index.js';
import { estimateTokens } from '../../../src/explore/index/repo-map.js';
import type { ToolExecutionContext } from '../../../src/tools/define-tool.js';

const axiosRoot = fileURLToPath(new URL('../../../node_modules/axios', import.meta.url));
const index = new CodeIndex({ root: axiosRoot });
const tools = createCodeTools({ root: axiosRoot, index });
const context: ToolExecutionContext = {
  requestId: 'request',
  runId: 'run',
  turnIndex: 0,
  toolCallId: 'call',
  signal: new AbortController().signal,
};

async function run(name: string, input: unknown): Promise<string> {
  const tool = tools[name];
  if (tool === undefined) throw new Error(`no tool ${name}`);
  return String(await tool.execute(input, context));
}

describe('code intelligence on axios', () => {
  it('get_definition finds dispatchRequest in lib/core/dispatchRequest.js', async () => {
    const [definition] = await index.definitions('dispatchRequest');
    expect(definition).toMatchObject({
      path: 'lib/core/dispatchRequest.js',
      kind: 'function',
      exported: true,
    });
    expect(definition?.snippet).toContain('export default function dispatchRequest(');
    const text = await run('get_definition', { symbol: 'dispatchRequest' });
    expect(text).toMatch(
      /^1 definition of "dispatchRequest":\nlib\/core\/dispatchRequest\.js:\d+ function dispatchRequest \(exported\)/,
    );
  });

  it('get_definition follows a default import alias to the default export', async () => {
    // `utils` is only ever a local name: `import utils from './utils.js'`; utils.js has `export default {...}`.
    const definitions = await index.definitions('utils', { path: 'lib/axios.js' });
    expect(definitions.map((definition) => definition.path)).toEqual(['lib/utils.js']);
    expect(definitions[0]?.snippet.startsWith('export default {')).toBe(true);
  });

  it('get_definition tells the model what to do about an unknown name', async () => {
    await expect(run('get_definition', { symbol: 'noSuchThing' })).rejects.toThrow(
      /No definition of "noSuchThing".*search_text/,
    );
  });

  it('get_references on AxiosError includes lib/adapters/http.js, grouped by file', async () => {
    const result = await index.references('AxiosError');
    const files = result.files.map((file) => file.path);
    expect(files).toContain('lib/adapters/http.js');
    expect(new Set(files).size).toBe(files.length);
    const http = result.files.find((file) => file.path === 'lib/adapters/http.js');
    expect(http?.references.some((reference) => reference.text.includes('AxiosError'))).toBe(true);
    const text = await run('get_references', { symbol: 'AxiosError' });
    expect(text).toContain('\nlib/adapters/http.js (');
  });

  it('get_references reaches uses through `export default { fn }` objects', async () => {
    // isString is exported only as a shorthand property of utils.js's default export object.
    const result = await index.references('isString', { path: 'lib/utils.js' });
    const outside = result.files.filter((file) => file.path !== 'lib/utils.js');
    expect(outside.length).toBeGreaterThan(3);
    expect(
      outside.flatMap((file) => file.references).every((reference) => reference.text.includes('isString')),
    ).toBe(true);
  });

  it('get_imports resolves lib/axios.js relative imports to repo files', async () => {
    const { imports } = await index.imports('lib/axios.js');
    expect(imports.length).toBeGreaterThan(10);
    expect(imports.every((record) => record.resolved !== undefined)).toBe(true);
    expect(imports.find((record) => record.specifier === './core/Axios.js')?.resolved).toBe(
      'lib/core/Axios.js',
    );
    expect(imports.find((record) => record.specifier === './defaults/index.js')?.resolved).toBe(
      'lib/defaults/index.js',
    );
    const text = await run('get_imports', { path: 'lib/axios.js' });
    expect(text).toContain('"./utils.js" -> lib/utils.js {default}');
  });

  it('import_graph gives the importers of a file and a repo summary', async () => {
    const graph = await index.importGraph({ path: 'lib/utils.js' });
    expect(graph.importedBy.length).toBeGreaterThan(20);
    expect(graph.importedBy.map((importer) => importer.path)).toContain('lib/core/Axios.js');
    const summary = await index.importGraph();
    expect(summary.mostImported[0]).toEqual({ path: 'lib/utils.js', importedBy: graph.importedBy.length });
    expect(summary.entryPoints.map((entry) => entry.path)).toContain('index.js');
    const text = await run('import_graph', {});
    expect(text).toContain(`lib/utils.js <- ${graph.importedBy.length} files`);
  });

  it('repo_map fits its token budget and ranks lib/core/Axios.js and lib/utils.js near the top', async () => {
    for (const maxTokens of [256, 1024, 4096]) {
      const map = await index.repoMap({ maxTokens });
      expect(map.estimatedTokens).toBeLessThanOrEqual(maxTokens);
      expect(estimateTokens(map.text)).toBe(map.estimatedTokens);
    }
    const map = await index.repoMap({ maxTokens: 1024 });
    const order = map.files.map((file) => file.path);
    expect(order.slice(0, 5)).toEqual(expect.arrayContaining(['lib/utils.js', 'lib/core/Axios.js']));
    expect(map.files.find((file) => file.path === 'lib/core/Axios.js')?.symbols).toContain('Axios');
    // Hand-written typings mirror lib/: they rank below it, and index.d.cts (index.d.ts's twin) is not ranked.
    expect(order.slice(0, 10).some((path) => path.startsWith('index.d.'))).toBe(false);
    expect(order).not.toContain('index.d.cts');
    const focused = await index.repoMap({ maxTokens: 1024, focusSymbols: ['Axios'] });
    expect(focused.files.slice(0, 5).map((file) => file.path)).toEqual(
      expect.arrayContaining(['lib/core/Axios.js', 'lib/utils.js']),
    );
    const text = await run('repo_map', { max_tokens: 512 });
    expect(estimateTokens(text)).toBeLessThanOrEqual(512);
    expect(text).toMatch(/^Repo map: \d+ of \d+ ranked files/);
  });

  it('get_symbols and get_structure describe lib/core/Axios.js', async () => {
    const symbols = await run('get_symbols', { path: 'lib/core/Axios.js' });
    expect(symbols).toMatch(/class Axios \[exported default\] L\d+-\d+/);
    expect(symbols).toMatch(/method Axios\.request L\d+-\d+/);
    const structure = await run('get_structure', { path: 'lib/core/Axios.js' });
    expect(structure).toMatch(/class Axios \[exported default\]: class Axios\n/);
    expect(structure).toContain('"../utils.js"'.slice(1, -1));
  });
});
