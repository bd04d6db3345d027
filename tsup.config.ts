import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** Build entries; `test/contract/package-exports.test.ts` checks that package.json#exports matches them. */
export const entries = {
  index: 'src/index.ts',
  testing: 'src/testing/index.ts',
  openai: 'src/adapters/openai/index.ts',
  deepseek: 'src/adapters/deepseek/index.ts',
  anthropic: 'src/adapters/anthropic/index.ts',
  gemini: 'src/adapters/gemini/index.ts',
  explore: 'src/explore/index.ts',
  mcp: 'src/mcp.ts',
  otel: 'src/otel.ts',
  trace: 'src/trace.ts',
  postgres: 'src/postgres.ts',
  bullmq: 'src/bullmq.ts',
  replay: 'src/replay.ts',
  evals: 'src/evals.ts',
  temporal: 'src/temporal.ts',
  'temporal/workflow': 'src/temporal-workflow.ts',
} as const;

/**
 * Node-only entries published as ESM alone: no CommonJS copy, so they do not ship twice (the
 * install stays small). `require()` still loads them, through Node's
 * require(esm) (Node 20.19+ and 22.12+, hence `engines`); their types are the `.d.ts` files.
 */
export const esmOnlyEntries: readonly (keyof typeof entries)[] = [
  'explore',
  'mcp',
  'otel',
  'trace',
  'postgres',
  'bullmq',
  'replay',
  'evals',
  'temporal',
  'temporal/workflow',
];

/**
 * In the ESM build, `import ts from 'typescript'` becomes `createRequire(import.meta.url)('typescript')`.
 * The compiler is one 9 MB CommonJS file: imported from ESM, Node first compiles it to detect its
 * module format and then scans it with cjs-module-lexer for named exports, which we never use.
 * Required, it loads in about half the time (a cold code index query, 650 ms → 300 ms here).
 */
const requireTypeScript: Plugin = {
  name: 'require-typescript',
  setup(build) {
    // `noExternal` below hands `typescript` to this plugin, which keeps it external in both builds.
    // tsup builds the CommonJS output as ESM too (for code splitting) and says which in `TSUP_FORMAT`.
    if (build.initialOptions.define?.['TSUP_FORMAT'] !== '"esm"') {
      build.onResolve({ filter: /^typescript$/ }, () => ({ path: 'typescript', external: true }));
      return;
    }
    build.onResolve({ filter: /^typescript$/ }, () => ({
      path: 'typescript',
      namespace: 'require-typescript',
    }));
    build.onLoad({ filter: /.*/, namespace: 'require-typescript' }, () => ({
      contents:
        "import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)('typescript');\n",
      loader: 'js',
    }));
  },
};

/**
 * The bundled zod-to-json-schema imports one value from `zod/v3`, the table of zod 3's type names:
 * it gets our copy of that table instead, so a bundle of the root entry carries no zod 3 (an app
 * on zod 4 would bundle it for a converter it never calls). Any other `zod/v3` import stays
 * external; `noExternal` below hands `zod/v3` to this plugin.
 */
const zodTypeNames: Plugin = {
  name: 'zod-type-names',
  setup(build) {
    const table = fileURLToPath(new URL('./src/tools/zod-first-party-type-kind.ts', import.meta.url));
    build.onResolve({ filter: /^zod\/v3$/ }, (args) =>
      /[\\/]node_modules[\\/]zod-to-json-schema[\\/]/.test(args.importer)
        ? { path: table }
        : { path: 'zod/v3', external: true },
    );
  },
};

export default defineConfig({
  // The CLI is a bin, not an export subpath. `neutral` is the root entry's build for every
  // export condition but `node` (package.json#exports): browsers, edge and worker runtimes.
  entry: { ...entries, neutral: 'src/neutral.ts', cli: 'src/cli/bin.ts' },
  format: ['esm', 'cjs'],
  esbuildOptions(options, { format }) {
    // The bin runs as ESM (dist/cli.js): a CommonJS build of it and its command chunks would only
    // add weight to the install. Nor do
    // the ESM-only entries get one.
    if (format === 'cjs' && options.entryPoints !== undefined && !Array.isArray(options.entryPoints)) {
      const commonJs = Object.entries(options.entryPoints as Record<string, string>).filter(
        ([name]) => name !== 'cli' && !(esmOnlyEntries as readonly string[]).includes(name),
      );
      options.entryPoints = Object.fromEntries(commonJs);
    }
    // Not minified: Node prints the source line of the frame that threw an uncaught error, and
    // a file without whitespace is one line of tens of kilobytes. Identifiers are kept too, so
    // stack traces name our functions (minifying them would need esbuild's `keepNames`, whose
    // `__name` calls on every closure slow the loop). Source maps are not shipped.
    options.minifyWhitespace = false;
    options.minifySyntax = false;
  },
  // zod-to-json-schema (only for classic zod 3 schemas) is bundled rather than installed: its
  // author ended its maintenance in November 2025 (zod 4 converts natively), so there are no
  // updates to receive, and bundled it weighs about a fifth of its 256 KB install. Its ISC licence
  // is in THIRD-PARTY-LICENSES.md. `typescript` is listed so `requireTypeScript` decides how it is
  // loaded (it stays external). tokenx (the default token estimate of `contextWindow`, MIT) is
  // bundled: its 8 KB of code weigh less than its 65 KB install (a CLI and README).
  noExternal: ['zod-to-json-schema', 'typescript', 'tokenx', 'zod/v3'],
  esbuildPlugins: [requireTypeScript, zodTypeNames],
  dts: true,
  // Not shipped: they tripled the package's size.
  sourcemap: false,
  clean: true,
  target: 'node20',
  splitting: true,
  treeshake: true,
});
