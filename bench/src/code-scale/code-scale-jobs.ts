import type { SearchCase } from './code-scale-child.js';
import { ripgrepTypeFilter, ripgrepWalkArguments } from './ripgrep-files.js';

/** The file the edit job appends to, and what it appends. */
export const editedFile = 'packages/astro/src/core/errors/errors.ts';
export const editedText = `
export function scaleBenchProbe(): AstroError {
\treturn new AstroError({ name: 'ScaleBenchProbe', message: 'probe' });
}
`;

/** Names looked up warm: the ones used in at least 100 files are kept, most used first. */
export const candidateNames = ['loadFixture', 'defineConfig', 'AstroError', 'AstroConfig', 'AstroSettings'];

/** The literal searched by the cold `search_text` job and the first warm search. */
const literalPattern = 'new AstroError(';
/** The first answers timed in a fresh process each: the index built from nothing. */
export const coldTools: readonly { readonly tool: string; readonly input: Record<string, unknown> }[] = [
  { tool: 'get_definition', input: { symbol: 'AstroError' } },
  { tool: 'get_references', input: { symbol: 'AstroError' } },
  { tool: 'get_structure', input: { path: editedFile } },
  { tool: 'get_imports', input: { path: editedFile } },
  { tool: 'repo_map', input: {} },
  { tool: 'search_text', input: { pattern: literalPattern, regex: false, case_sensitive: true } },
];

/** The warm `search_text` cases: literal, regex, case-insensitive and glob-filtered, each with its ripgrep twin. */
export function searchCases(): SearchCase[] {
  const lines = ['--line-number', '--no-heading', ...ripgrepWalkArguments];
  return [
    {
      label: `literal \`${literalPattern}\``,
      input: { pattern: literalPattern, regex: false, case_sensitive: true },
      ripgrepArguments: [...lines, '--fixed-strings', '--case-sensitive', '-e', literalPattern, '.'],
    },
    {
      label: 'regex `export (async )?function \\w+\\(`',
      input: { pattern: 'export (async )?function \\w+\\(', case_sensitive: true },
      ripgrepArguments: [...lines, '--case-sensitive', '-e', 'export (async )?function \\w+\\(', '.'],
    },
    {
      label: 'case-insensitive `content collection`',
      input: { pattern: 'content collection' },
      ripgrepArguments: [...lines, '--ignore-case', '-e', 'content collection', '.'],
    },
    {
      label: 'glob `*.ts`, `import\\.meta\\.env`',
      input: { pattern: 'import\\.meta\\.env', glob: '*.ts', case_sensitive: true },
      ripgrepArguments: [
        ...lines,
        ...ripgrepTypeFilter('*.ts'),
        '--case-sensitive',
        '-e',
        'import\\.meta\\.env',
        '.',
      ],
    },
  ];
}
