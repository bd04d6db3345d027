import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { CodeChildOptions, CodeChildResult } from './code-child.js';

export interface CodeSuiteOptions {
  readonly rounds: number;
  readonly repeats: number;
  readonly log: (line: string) => void;
  /**
   * A built checkout of tool-orchestrator (e.g. main's, in a folder of its own with `dist/`) whose
   * index and lookup jobs run alternated with ours, compared in a table of their own.
   */
  readonly baseline?: string;
}

interface Corpus {
  readonly name: string;
  /** What its files are written in, for the table. */
  readonly language: 'JS/TS' | 'Python';
  /** Indexed and mapped. */
  readonly root: string;
  /** Searched: a directory the sandbox's default excludes leave whole, so ripgrep sees the same files. */
  readonly searchRoot: string;
}

const require = createRequire(import.meta.url);
const packageDirectory = (name: string, from: string): string =>
  dirname(createRequire(from).resolve(`${name}/package.json`));

/**
 * A real Python package for the index benchmark, offline: pip as the system Python ships it
 * (about 490 files, its vendored packages included). `undefined` when python3 or pip is missing.
 */
function pythonCorpus(): Corpus | undefined {
  const probe = spawnSync('python3', ['-c', 'import os, pip; print(os.path.dirname(pip.__file__))'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  const root = probe.status === 0 ? probe.stdout.trim() : '';
  return root === '' ? undefined : { name: 'pip (Python)', language: 'Python', root, searchRoot: root };
}

function corpora(): Corpus[] {
  const rootPackage = fileURLToPath(new URL('../../../package.json', import.meta.url));
  const axios = packageDirectory('axios', rootPackage);
  const rxjs = packageDirectory('rxjs', require.resolve('rxjs'));
  const lodash = packageDirectory('lodash-es', fileURLToPath(import.meta.url));
  return [
    { name: 'axios', language: 'JS/TS', root: axios, searchRoot: join(axios, 'lib') },
    { name: 'rxjs/src', language: 'JS/TS', root: join(rxjs, 'src'), searchRoot: join(rxjs, 'src') },
    { name: 'lodash-es', language: 'JS/TS', root: lodash, searchRoot: lodash },
  ];
}

function countSourceFiles(directory: string, pattern: RegExp): number {
  let count = 0;
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) count += entry === '__pycache__' ? 0 : countSourceFiles(path, pattern);
    else if (pattern.test(entry) && !entry.endsWith('.d.ts')) count++;
  }
  return count;
}

const patterns = ['function\\s+\\w+\\(', 'AxiosError|isArray', 'return null'];

/** Index, lookup, repo_map and search benchmarks; a fresh process per job and round. */
export async function runCodeSuite(
  options: CodeSuiteOptions,
): Promise<{ results: CodeChildResult[]; markdown: string }> {
  const sources = corpora();
  const axios = sources[0]!;
  const python = pythonCorpus();
  if (python === undefined)
    options.log('  python3 with pip is not available: the Python index benchmark is skipped.');
  const indexed = python === undefined ? sources : [...sources, python];
  const ripgrep = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  const ripgrepVersion = ripgrep.error === undefined ? ripgrep.stdout.split('\n')[0] : undefined;
  if (ripgrepVersion === undefined) {
    options.log(
      '  ripgrep (rg) is not installed: the search_text comparison is skipped (apt-get install -y ripgrep).',
    );
  }
  const jobs: CodeChildOptions[] = [
    ...indexed.map((corpus): CodeChildOptions => ({
      mode: 'index',
      root: corpus.root,
      repeats: options.repeats,
    })),
    {
      mode: 'lookup',
      root: axios.root,
      tool: 'get_definition',
      queries: ['dispatchRequest', 'AxiosError', 'mergeConfig', 'buildURL', 'AxiosHeaders', 'isFormData'],
      repeats: options.repeats,
    },
    {
      mode: 'lookup',
      root: axios.root,
      tool: 'get_references',
      queries: ['AxiosError', 'mergeConfig', 'buildURL', 'AxiosHeaders', 'isFormData', 'dispatchRequest'],
      repeats: options.repeats,
    },
    ...(ripgrepVersion === undefined
      ? []
      : sources.map((corpus): CodeChildOptions => ({
          mode: 'search',
          root: corpus.searchRoot,
          queries: patterns,
          repeats: options.repeats,
        }))),
  ];
  const baseline = options.baseline;
  const allJobs =
    baseline === undefined
      ? jobs
      : jobs.flatMap((job) => (job.mode === 'search' ? [job] : [job, { ...job, packageRoot: baseline }]));
  const everything: CodeChildResult[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = allJobs.map((_, index) => allJobs[(index + round) % allJobs.length]!);
    for (const job of order) {
      const result = await runChild<CodeChildResult>('code-child', job).catch(
        (error: unknown): CodeChildResult => ({
          mode: job.mode,
          root: job.root,
          ok: false,
          failure: (error as Error).message,
        }),
      );
      options.log(
        `  round ${round + 1}/${options.rounds} ${job.mode} ${job.tool ?? ''} ${job.root}${job.packageRoot === undefined ? '' : ' (baseline)'}: ${result.ok ? 'ok' : `FAILED ${result.failure}`}`,
      );
      everything.push(result);
    }
  }
  const results = everything.filter((result) => result.packageRoot === undefined);
  const baselineResults = everything.filter((result) => result.packageRoot !== undefined);
  const ms = (value: number | undefined): string => formatNumber(value, 1);
  const pick = (
    matches: (result: CodeChildResult) => boolean,
    value: (result: CodeChildResult) => number | undefined,
  ): number | undefined => {
    const matching = results.filter(matches);
    if (matching.length === 0 || matching.some((result) => !result.ok)) return undefined;
    return median(matching.map(value).filter((entry): entry is number => entry !== undefined));
  };
  const indexRows = indexed.map((corpus) => {
    const of = (result: CodeChildResult): boolean => result.mode === 'index' && result.root === corpus.root;
    const pattern = corpus.language === 'Python' ? /\.pyi?$/ : /\.(c|m)?(j|t)sx?$/;
    return [
      corpus.name,
      `${formatNumber(
        pick(of, (result) => result.files),
        0,
      )} indexed (${countSourceFiles(corpus.root, pattern)} ${corpus.language} files on disk)`,
      ms(pick(of, (result) => result.indexMs)),
      ms(pick(of, (result) => result.reindexMs)),
      formatNumber(
        pick(of, (result) => result.indexHeapMb),
        1,
      ),
      formatNumber(
        pick(of, (result) => result.indexRssMb),
        1,
      ),
      ms(pick(of, (result) => result.repoMapColdMs)),
      ms(pick(of, (result) => result.repoMapWarmMs)),
    ];
  });
  const lookupRows = (['get_definition', 'get_references'] as const).map((tool) => {
    const of = (result: CodeChildResult): boolean => result.mode === 'lookup' && result.tool === tool;
    return [
      `${tool} on axios`,
      ms(pick(of, (result) => result.coldMs)),
      ms(pick(of, (result) => result.warmMs)),
      ms(pick(of, (result) => result.repeatMs)),
    ];
  });
  const searchRows: string[][] = [];
  if (ripgrepVersion !== undefined) {
    for (const corpus of sources) {
      for (const pattern of patterns) {
        const matching = results.filter(
          (result) => result.mode === 'search' && result.root === corpus.searchRoot,
        );
        if (matching.some((result) => !result.ok) || matching.length === 0) {
          searchRows.push([corpus.name, `\`${pattern}\``, 'failed', '', '', '', '', '']);
          continue;
        }
        const entries = matching.map((result) =>
          result.searches!.find((search) => search.pattern === pattern)!,
        );
        const ours = median(entries.map((entry) => entry.oursMs));
        const rg = median(entries.map((entry) => entry.ripgrepMs));
        const rgWork = median(entries.map((entry) => entry.ripgrepMs - entry.ripgrepSpawnMs));
        const last = entries.at(-1)!;
        searchRows.push([
          corpus.name,
          `\`${pattern.replaceAll('|', '\\|')}\``,
          `${last.oursMatches} / ${last.ripgrepMatches}${last.oursMatches === last.ripgrepMatches ? '' : ' (differ)'}`,
          ms(ours),
          ms(rg),
          formatRatio(ours, rg),
          ms(rgWork),
          formatRatio(ours, rgWork),
        ]);
      }
    }
  }
  const comparisonRows: string[][] = [];
  if (baseline !== undefined) {
    const medianOf = (
      from: readonly CodeChildResult[],
      matches: (result: CodeChildResult) => boolean,
      value: (result: CodeChildResult) => number | undefined,
    ): number | undefined => {
      const matching = from.filter(matches);
      if (matching.length === 0 || matching.some((result) => !result.ok)) return undefined;
      return median(matching.map(value).filter((entry): entry is number => entry !== undefined));
    };
    const row = (
      label: string,
      matches: (result: CodeChildResult) => boolean,
      value: (result: CodeChildResult) => number | undefined,
    ): string[] => {
      const before = medianOf(baselineResults, matches, value);
      const after = medianOf(results, matches, value);
      return [label, ms(before), ms(after), formatRatio(after, before)];
    };
    for (const corpus of indexed) {
      const of = (result: CodeChildResult): boolean => result.mode === 'index' && result.root === corpus.root;
      comparisonRows.push(
        row(`${corpus.name}: index, first in the process`, of, (result) => result.indexMs),
        row(`${corpus.name}: index again`, of, (result) => result.reindexMs),
        row(`${corpus.name}: RSS after index, MB`, of, (result) => result.indexRssMb),
      );
    }
    for (const tool of ['get_definition', 'get_references'] as const) {
      const of = (result: CodeChildResult): boolean => result.mode === 'lookup' && result.tool === tool;
      comparisonRows.push(
        row(`axios: \`${tool}\` cold (fresh process)`, of, (result) => result.coldMs),
        row(`axios: \`${tool}\` warm (median)`, of, (result) => result.warmMs),
      );
    }
  }
  const failures = everything
    .filter((result) => !result.ok)
    .map((result) => `- ${result.mode} ${result.root}: ${result.failure}`);
  const markdown = [
    '### Code tools: indexing and repo_map (ms, medians over rounds)',
    '',
    markdownTable(
      [
        'corpus',
        'files',
        'index, first in process',
        'index again (compiler loaded)',
        'heap after index, MB',
        'RSS after index, MB',
        'repo_map, fresh registry',
        'repo_map, warm',
      ],
      indexRows,
    ),
    '',
    '### Code tools: lookups on axios (ms)',
    '',
    markdownTable(
      ['tool', 'cold (fresh process, indexing included)', 'warm (other names, median)', 'same name again'],
      lookupRows,
    ),
    '',
    ripgrepVersion === undefined
      ? 'search_text vs ripgrep: skipped, `rg` is not installed.'
      : [
          `### Code tools: search_text vs ${ripgrepVersion} (ms, median; rg timed as a spawned process)`,
          '',
          markdownTable(
            [
              'tree',
              'pattern (case-insensitive)',
              'matched lines ours / rg',
              'search_text',
              'rg (spawned)',
              'ours / rg',
              'rg minus its spawn',
              'ours / (rg minus spawn)',
            ],
            searchRows,
          ),
        ].join('\n'),
    ...(baseline === undefined
      ? []
      : [
          '',
          `### Code tools: against the baseline ${baseline} (ms, medians over rounds, alternated)`,
          '',
          markdownTable(['measure', 'baseline', 'this build', 'this / baseline'], comparisonRows),
        ]),
    ...(failures.length === 0 ? [] : ['', 'Failed:', ...failures]),
  ].join('\n');
  return { results: everything, markdown };
}
