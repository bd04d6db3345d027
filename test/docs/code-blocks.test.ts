import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapConcurrently } from '../support/map-concurrently.js';
import { usePostgresServer } from '../support/postgres-fixture.js';
import { useRedisServer } from '../support/redis-fixture.js';
import { createConsumerApp } from './consumer-app.js';
import { findSnippets, snippetName } from './doc-snippets.js';
import type { Snippet } from './doc-snippets.js';
import { startFakeModelServer } from './fake-model-server.js';
import type { FakeModelServer } from './fake-model-server.js';
import { runSnippet } from './run-snippet.js';
import type { SnippetOutcome } from './run-snippet.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const all = findSnippets(root);

/** Packages the docs tell the reader to install beside this one, for their own snippets. */
const documentedInstalls = [
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/resources',
  '@temporalio/worker',
  '@temporalio/client',
];
/** MCP servers the docs start with `npx -y <package>`. */
const documentedCommands = ['@modelcontextprotocol/server-filesystem'];

/** Lines blocks print, as their trailing `// ...` comments show them (compared without whitespace). */
const printedLines: readonly { readonly document: string; readonly printed: string }[] = [
  { document: 'docs/getting-started.md', printed: '2 + 3 = 5 final 5' },
  { document: 'docs/durable-runs.md', printed: '1 2' },
  { document: 'docs/runs.md', printed: '2 + 3 = 5 final' },
  { document: 'docs/adapters.md', printed: 'Hi' },
  { document: 'docs/tools.md', printed: "{ role: 'tool', tool_call_id: 'call_0', content: 'customer c_1' }" },
  { document: 'docs/traces.md', printed: "['run_start', 'llm_call', 'run_end']" },
  { document: 'docs/agents.md', printed: '[withheld: this file holds a secret]' },
  { document: 'docs/agents.md', printed: "[ 'billing', 'triage' ] triage" },
  { document: 'docs/testing-and-evals.md', printed: '1 of 2 passed' },
  { document: 'docs/testing-and-evals.md', printed: 'expected "Lima.", got "Paris."' },
  { document: 'docs/testing-and-evals.md', printed: 'false []' },
];

/** A block's process may run this long; every block is far quicker, even two at a time on a busy machine. */
const deadlineMs = 60_000;
/** Blocks running at once. */
const concurrency = 2;

const postgres = usePostgresServer();
const redis = useRedisServer();
/** The real services a block needs, by the entry it imports. */
const servicesByEntry = { 'tool-orchestrator/postgres': postgres, 'tool-orchestrator/bullmq': redis };

describe('code blocks in README.md and docs/', () => {
  let app: string;

  beforeAll(() => {
    app = createConsumerApp({
      root,
      // `@types/node` for the type-check, `tsx` to run the blocks.
      extraPackages: ['@types/node', 'tsx', ...documentedInstalls],
      commandPackages: documentedCommands,
    });
    all.forEach((snippet, index) => {
      const path = snippetFile(app, index);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, snippet.code);
    });
  }, 60_000);
  afterAll(() => {
    if (app !== undefined) rmSync(app, { recursive: true, force: true });
  });

  it('finds the code blocks (the scan works)', () => {
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((snippet) => snippet.document)).toEqual(
      expect.arrayContaining(['README.md', 'docs/tools.md', 'docs/traces.md', 'docs/adapters.md']),
    );
  });

  it('import only the package, never files of this repository', () => {
    for (const snippet of all) {
      expect(snippet.code, snippetName(snippet)).not.toMatch(/from '\.\.?\//);
    }
  });

  it('type-check in a consumer app against the packed package', () => {
    const bySource = new Map(all.map((snippet, index) => [snippetFile(app, index), snippet] as const));
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

  it('mark a block not to run only with a reason, and list the blocks so marked', () => {
    const exempt = all.filter((snippet) => snippet.noRunReason !== undefined);
    console.info(
      exempt.length === 0
        ? 'docs code blocks not run: none'
        : `docs code blocks not run:\n${exempt.map((snippet) => `  ${snippetName(snippet)}: ${snippet.noRunReason}`).join('\n')}`,
    );
    expect(
      all
        .filter((snippet) => snippet.badMarker !== undefined)
        .map((snippet) => `${snippetName(snippet)}: ${snippet.badMarker}`),
      'a marker before a fence must read <!-- docs-test: no-run (why) -->',
    ).toEqual([]);
    expect(
      exempt.filter((snippet) => snippet.noRunReason === '').map(snippetName),
      'say why a block cannot run: <!-- docs-test: no-run (why) -->',
    ).toEqual([]);
  });

  it('reads a no-run marker on the line before the fence, its reason, and a malformed marker', () => {
    const folder = mkdtempSync(join(tmpdir(), 'docs-markers-'));
    try {
      mkdirSync(join(folder, 'docs'));
      writeFileSync(
        join(folder, 'README.md'),
        [
          '<!-- docs-test: no-run (needs a browser) -->',
          '```ts',
          'one;',
          '```',
          '<!-- docs-test: no-run -->',
          '',
          '```ts',
          'two;',
          '```',
          '<!-- docs-test: skip (why) -->',
          '```ts',
          'three;',
          '```',
          '<!-- docs-test: no-run (stale) -->',
          'Prose between the marker and the fence.',
          '```ts',
          'four;',
          '```',
        ].join('\n'),
      );
      expect(
        findSnippets(folder).map(({ code, noRunReason, badMarker }) => ({ code, noRunReason, badMarker })),
      ).toEqual([
        { code: 'one;', noRunReason: 'needs a browser', badMarker: undefined },
        { code: 'two;', noRunReason: '', badMarker: undefined },
        { code: 'three;', noRunReason: undefined, badMarker: '<!-- docs-test: skip (why) -->' },
        { code: 'four;', noRunReason: undefined, badMarker: undefined },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  describe('run in the consumer app, each in a fresh folder, with a fake model and real services', () => {
    const runnable = all
      .map((snippet, index) => ({ snippet, index }))
      .filter(({ snippet }) => snippet.noRunReason === undefined);
    const outcomes = new Map<number, SnippetOutcome>();
    const skipped = new Map<number, string>();
    let model: FakeModelServer;

    beforeAll(async () => {
      model = await startFakeModelServer();
      const work = join(app, 'work');
      mkdirSync(work);
      const preload = pathToFileURL(fileURLToPath(new URL('./offline-preload.ts', import.meta.url))).href;
      const started = Date.now();
      await mapConcurrently(runnable, concurrency, async ({ snippet, index }) => {
        const missing = missingService(snippet);
        if (missing !== undefined) {
          skipped.set(index, missing);
          return;
        }
        outcomes.set(
          index,
          await runSnippet({
            file: snippetFile(app, index),
            cwd: mkdtempSync(join(work, 'block-')),
            env: childEnvironment(model, snippet),
            preloads: [preload],
            deadlineMs,
          }),
        );
      });
      const slowest = [...outcomes]
        .sort(([, a], [, b]) => b.elapsedMs - a.elapsedMs)
        .slice(0, 3)
        .map(([index, outcome]) => `${snippetName(all[index]!)} ${(outcome.elapsedMs / 1000).toFixed(1)} s`);
      console.info(
        `ran ${outcomes.size} docs code blocks, ${concurrency} at a time, in ${((Date.now() - started) / 1000).toFixed(1)} s; slowest: ${slowest.join(', ')}`,
      );
    }, 600_000);
    afterAll(async () => {
      await model?.close();
    });

    it.for(runnable.map(({ snippet, index }) => [snippetName(snippet), index] as const))(
      '%s exits 0 on its own',
      ([, index], context) => {
        const reason = skipped.get(index);
        if (reason !== undefined) context.skip(reason);
        expectCleanExit(outcomes.get(index));
      },
    );

    it('print what their comments say they print', () => {
      for (const { document, printed } of printedLines) {
        const index = all.findIndex(
          (snippet) =>
            snippet.document === document &&
            snippet.code
              .split('\n')
              .some((line) => /^\s*console\.log\(/.test(line) && line.endsWith(`// ${printed}`)),
        );
        expect(
          index,
          `${document} has a console.log(...) line ending in // ${printed}`,
        ).toBeGreaterThanOrEqual(0);
        const stdout = outcomes.get(index)?.stdout ?? '';
        expect(
          stdout.split('\n').map(withoutWhitespace),
          `${snippetName(all[index]!)} printed:\n${stdout}`,
        ).toContain(withoutWhitespace(printed));
      }
    });

    it('reach the fake model, the providers’ default hosts routed to it, and export spans to it', () => {
      expect(model.callsBySnippet.size).toBeGreaterThan(0);
      expect([...model.routedHosts]).toContain('api.deepseek.com');
      expect(model.spanExports).toBeGreaterThan(0);
    });
  });

  /** The reason a block cannot run here (outside CI; under `CI=true` the fixtures fail instead). */
  function missingService(snippet: Snippet): string | undefined {
    return Object.entries(servicesByEntry).find(
      ([entry, service]) => snippet.code.includes(`'${entry}'`) && service.skipReason !== undefined,
    )?.[1].skipReason;
  }
});

function snippetFile(app: string, index: number): string {
  return join(app, 'snippets', `snippet-${index}.ts`);
}

/**
 * What a block's process sees: fake API keys, the fake model as the OpenAI base URL and OTLP
 * endpoint, the test's databases, and npm told to stay offline (`npx` then runs only what the app
 * has installed). Nothing else of this process's environment: no real key can leak in.
 */
function childEnvironment(model: FakeModelServer, snippet: Snippet): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: process.env['HOME'],
    LANG: 'C.UTF-8',
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    OPENAI_API_KEY: 'sk-docs-test',
    DEEPSEEK_API_KEY: 'sk-docs-test',
    ANTHROPIC_API_KEY: 'sk-docs-test',
    GEMINI_API_KEY: 'docs-test',
    // docs/adapters.md's OpenRouter example reads its own key (the OpenAI one is never sent there).
    OPENROUTER_API_KEY: 'sk-docs-test',
    OPENAI_BASE_URL: `${model.origin}/v1`,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${model.origin}/v1/traces`,
    DOCS_TEST_MODEL_ORIGIN: model.origin,
    DOCS_TEST_SNIPPET: snippetName(snippet),
  };
  if (postgres.skipReason === undefined) environment['DATABASE_URL'] = postgres.server.connectionString;
  if (redis.skipReason === undefined) environment['REDIS_PORT'] = String(redis.server.port);
  return environment;
}

function expectCleanExit(outcome: SnippetOutcome | undefined): void {
  expect(outcome, 'the block ran').toBeDefined();
  if (!outcome!.timedOut && outcome!.exitCode === 0) return;
  // Stack frames defused (vitest would otherwise try to source-map them), and the minified line
  // Node prints above an uncaught error cut.
  const stderr = outcome!.stderr
    .replace(/^(\s+)at /gm, '$1(at) ')
    .replace(/^.{300,}$/gm, (line) => `${line.slice(0, 200)}… (${line.length} characters)`)
    .replace(/^\s*\^\s*$/gm, '')
    .slice(-3000);
  const what = outcome!.timedOut
    ? `was still running after ${outcome!.elapsedMs} ms and was killed`
    : `exited with code ${String(outcome!.exitCode)}${outcome!.signal === null ? '' : ` (${outcome!.signal})`}`;
  expect.fail(`The block ${what}.\nstdout: ${outcome!.stdout.slice(-1500)}\nstderr: ${stderr}`);
}

function withoutWhitespace(text: string): string {
  return text.replace(/\s+/g, '');
}
