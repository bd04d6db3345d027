import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sandbox } from 'tool-orchestrator/explore';
import { formatNumber, formatRatio, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import { astroTwice, copyCorpus, findAstroTarball, unpackAstro } from './astro-corpus.js';
import type { CacheSetting, CodeScaleChildOptions, CodeScaleChildResult } from './code-scale-child.js';
import { candidateNames, coldTools, editedFile, editedText, searchCases } from './code-scale-jobs.js';
import { filesMentioning, ripgrepFileCount, ripgrepVersion } from './ripgrep-files.js';
import type { CompilerFloorJob, CompilerFloorResult } from './compiler-floor-child.js';
import { tsserverFirstAnswer, tsserverVersion } from './tsserver-first-answer.js';
import type { TsserverRequest } from './tsserver-first-answer.js';

export interface CodeScaleSuiteOptions {
  /** Rounds of every job; each cold measurement is a fresh process. */
  readonly rounds: number;
  /** Timed `search_text` and ripgrep calls per pattern and round. */
  readonly repeats: number;
  /** Also measure the synthetic monorepo (astro with its packages twice). */
  readonly monorepo: boolean;
  /** `--corpus=`: the astro tarball, or a folder holding it. */
  readonly corpus?: string;
  /** A built checkout (previous main) measured alternately with ours. */
  readonly baseline?: string;
  readonly log: (line: string) => void;
}

type Build = 'ours' | 'baseline';

/** One measured value of one build, keyed by the row it belongs to. */
interface Sample {
  readonly key: string;
  readonly build: Build;
  readonly value: number;
}

/**
 * Code intelligence at monorepo scale on the astro corpus: cold first answers and peak RSS,
 * warm `get_references`, a second process over a persistent cache, an edit picked up, and
 * `search_text` against ripgrep; each beside the `baseline` build and its target.
 */
export async function runCodeScaleSuite(options: CodeScaleSuiteOptions): Promise<{ markdown: string }> {
  const heading = '### Code intelligence at scale (astro)';
  const found = findAstroTarball(options.corpus);
  if (!('tarball' in found)) {
    const why = `the astro corpus is missing (no ${found.tried}); pass --corpus=PATH or set TOOL_ORCHESTRATOR_CORPORA.`;
    options.log(`  skipped: ${why}`);
    return { markdown: `${heading}\n\nSkipped: ${why}` };
  }
  let started = performance.now();
  const astro = unpackAstro(found.tarball);
  options.log(
    `  astro at ${astro} (${((performance.now() - started) / 1000).toFixed(1)} s to unpack or find)`,
  );
  started = performance.now();
  const twice = options.monorepo ? astroTwice(astro) : undefined;
  if (twice !== undefined)
    options.log(
      `  monorepo at ${twice} (${((performance.now() - started) / 1000).toFixed(1)} s to make or find)`,
    );
  const rgVersion = ripgrepVersion();
  if (rgVersion === undefined)
    options.log('  ripgrep (rg) is not installed: its columns and the name counts are skipped.');
  const names = candidateNames
    .map((name) => ({ name, files: rgVersion === undefined ? undefined : filesMentioning(astro, name) }))
    .filter((entry) => entry.files === undefined || entry.files >= 100)
    .sort((left, right) => (right.files ?? 0) - (left.files ?? 0))
    .slice(0, 3);
  const warmNames = names.map((entry) => entry.name);
  options.log(
    `  warm get_references names: ${names.map((entry) => `${entry.name} (${entry.files ?? '?'} files)`).join(', ')}`,
  );
  const corpora = [
    { name: 'astro', root: astro },
    ...(twice === undefined ? [] : [{ name: 'monorepo', root: twice }]),
  ];
  const fileCounts = await Promise.all(
    corpora.map(async (corpus) => ({
      name: corpus.name,
      ours: (await new Sandbox({ root: corpus.root }).listFiles()).length,
      scripts: (
        await new Sandbox({ root: corpus.root }).listFiles({ pattern: '*.{js,jsx,ts,tsx,mjs,cjs,mts,cts}' })
      ).length,
      ripgrep: rgVersion === undefined ? undefined : ripgrepFileCount(corpus.root),
    })),
  );

  // A second process over the cache: the two name questions, and the map, which needs every file.
  const secondProcessTools = coldTools.filter(({ tool }) =>
    ['get_definition', 'get_references', 'repo_map'].includes(tool),
  );
  const builds: Build[] = options.baseline === undefined ? ['ours'] : ['ours', 'baseline'];
  const packageRoot = (build: Build): { packageRoot?: string } =>
    build === 'baseline' && options.baseline !== undefined ? { packageRoot: options.baseline } : {};
  const samples: Sample[] = [];
  const notes = new Map<string, string>();
  const failures: string[] = [];
  const note = (key: string, build: Build, text: string): void => {
    notes.set(`${build}:${key}`, text);
  };
  const child = async (
    job: CodeScaleChildOptions,
    build: Build,
  ): Promise<CodeScaleChildResult | undefined> => {
    const result = await runChild<CodeScaleChildResult>(
      'code-scale-child',
      { ...job, ...packageRoot(build) },
      { timeoutMs: 900_000 },
    ).catch((error: unknown): CodeScaleChildResult => ({
      mode: job.mode,
      root: job.root,
      ok: false,
      failure: (error as Error).message,
    }));
    const label =
      job.mode === 'first-answer' ? `${job.tool}${job.cache === false ? '' : ' (cache)'}` : job.mode;
    options.log(
      `    ${build} ${label} ${job.root}: ${result.ok ? 'ok' : `FAILED ${result.failure?.slice(0, 500)}`}`,
    );
    if (!result.ok) {
      failures.push(`- ${build} ${label} on ${job.root}: ${result.failure?.slice(0, 500)}`);
      return undefined;
    }
    return result;
  };
  const record = (key: string, build: Build, value: number | undefined): void => {
    if (value !== undefined) samples.push({ key, build, value });
  };

  type Task = (build: Build) => Promise<void>;
  const tasks: Task[] = [];
  for (const corpus of corpora) {
    // On the monorepo, the two tools that need every file: get_definition and get_references.
    const tools = corpus.name === 'astro' ? coldTools : coldTools.slice(0, 2);
    for (const { tool, input } of tools) {
      tasks.push(async (build) => {
        const result = await child(
          {
            mode: 'first-answer',
            root: corpus.root,
            tool,
            input,
            cache: false,
            ...(tool === 'get_definition' ? { warmReferences: warmNames } : {}),
            ...(tool === 'search_text' && rgVersion !== undefined
              ? { ripgrepArguments: searchCases()[0]!.ripgrepArguments }
              : {}),
          },
          build,
        );
        record(`cold:${corpus.name}:${tool}`, build, result?.firstMs);
        record(`rss:${corpus.name}:${tool}`, build, result?.peakRssMb);
        record(`cold-rg:${corpus.name}:${tool}`, build, result?.ripgrepMs);
        for (const warm of result?.warm ?? []) record(`warm:${corpus.name}:${warm.name}`, build, warm.ms);
        record(`warm-up:${corpus.name}`, build, result?.warmUp?.ms);
        record(`warm-up-rss:${corpus.name}`, build, result?.warmUp?.peakRssMb);
      });
    }
  }
  // The reference the tools' answers are checked against: a fresh tsserver, once a round.
  const tsserverRequests: Readonly<Record<string, TsserverRequest>> = {
    get_definition: 'navto',
    get_references: 'references',
  };
  tasks.push(async (build) => {
    if (build !== 'ours') return;
    for (const [tool, request] of Object.entries(tsserverRequests)) {
      try {
        const answer = await tsserverFirstAnswer({
          root: astro,
          file: editedFile,
          name: 'AstroError',
          request,
        });
        options.log(`    tsserver ${request} ${astro}: ok, ${answer.count} items`);
        record(`tsserver:astro:${tool}`, 'ours', answer.ms);
        record(`tsserver-rss:astro:${tool}`, 'ours', answer.peakRssMb);
      } catch (error) {
        options.log(`    tsserver ${request} ${astro}: FAILED ${(error as Error).message}`);
        failures.push(`- tsserver ${request} on ${astro}: ${(error as Error).message}`);
      }
    }
  });
  // The floor under the cold answers: what the compiler alone costs in a fresh process, once a round.
  let floorFiles: { mentioning: number; scripts: number } | undefined;
  tasks.push(async (build) => {
    if (build !== 'ours') return;
    const job: CompilerFloorJob = { root: astro, name: 'AstroError' };
    const result = await runChild<CompilerFloorResult>('compiler-floor-child', job, {
      timeoutMs: 900_000,
    }).catch((error: unknown): CompilerFloorResult => ({ ok: false, failure: (error as Error).message }));
    options.log(
      `    compiler alone ${astro}: ${result.ok ? 'ok' : `FAILED ${result.failure?.slice(0, 500)}`}`,
    );
    if (!result.ok || result.loadMs === undefined) {
      failures.push(`- compiler alone on ${astro}: ${result.failure?.slice(0, 500)}`);
      return;
    }
    floorFiles = { mentioning: result.mentioningFiles ?? 0, scripts: result.scriptFiles ?? 0 };
    const definition = result.loadMs + (result.parseMentioningMs ?? 0);
    record('floor:astro:get_definition', 'ours', definition);
    record('floor:astro:get_references', 'ours', definition + (result.bindMentioningMs ?? 0));
    record('floor:astro:repo_map', 'ours', result.loadMs + (result.parseAllMs ?? 0));
    record('floor:astro:warm-up-rss', 'ours', result.programPeakRssMb);
  });
  // Two first processes: one that answers and exits, one that also warms (its whole index, as a
  // process that lived through a session leaves it); then a second process per tool over each cache.
  for (const writerKind of ['answered', 'warmed'] as const) {
    const prefix = writerKind === 'answered' ? 'cache' : 'cache-warmed';
    tasks.push(async (build) => {
      const directory = mkdtempSync(join(tmpdir(), 'tool-orchestrator-bench-cache-'));
      try {
        const cache: CacheSetting = { directory };
        const writer = await child(
          {
            mode: 'first-answer',
            root: astro,
            tool: 'get_references',
            input: { symbol: 'AstroError' },
            cache,
            ...(writerKind === 'warmed' ? { warmReferences: [] } : {}),
          },
          build,
        );
        record(`${prefix}-writer`, build, writer?.firstMs);
        if (writer === undefined) return;
        if (readdirSync(directory).length === 0) {
          note(prefix, build, 'no persistent cache in this build');
          return;
        }
        for (const { tool, input } of secondProcessTools) {
          const reader = await child({ mode: 'first-answer', root: astro, tool, input, cache }, build);
          record(`${prefix}:${tool}`, build, reader?.firstMs);
        }
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    });
  }
  tasks.push(async (build) => {
    const copy = copyCorpus(astro);
    try {
      const result = await child(
        {
          mode: 'edit',
          root: copy.root,
          file: editedFile,
          appended: editedText,
          declaredName: 'scaleBenchProbe',
          referencedName: 'AstroError',
          addedReferences: 2,
        },
        build,
      );
      const edit = result?.edit;
      if (edit === undefined) return;
      record('edit:get_definition', build, edit.definitionMs);
      record('edit:get_references', build, edit.referencesMs);
      if (edit.definitionCurrent && edit.attempts > 1)
        note('edit:get_definition', build, `current at the ${edit.attempts}th answer`);
      if (!edit.definitionCurrent)
        note(
          'edit:get_definition',
          build,
          `stale after ${edit.attempts} answers: ${JSON.stringify(edit.definitionHead.slice(0, 120))}`,
        );
      if (!edit.referencesCurrent)
        note(
          'edit:get_references',
          build,
          `stale: ${edit.referencesBefore} references before, ${edit.referencesAfter} after, expected +2`,
        );
    } finally {
      copy.remove();
    }
  });
  // The default search, then the Node search a build that can use ripgrep falls back to.
  for (const variant of rgVersion === undefined ? [] : (['search', 'search-ripgrep'] as const)) {
    tasks.push(async (build) => {
      const result = await child(
        {
          mode: 'search',
          root: astro,
          cases: searchCases(),
          repeats: options.repeats,
          ...(variant === 'search-ripgrep' ? { ripgrep: true } : {}),
        },
        build,
      );
      for (const search of result?.searches ?? []) {
        record(`${variant}:${search.label}`, build, search.oursMs);
        record(`${variant}-rg:${search.label}`, build, search.ripgrepMs);
        note(
          `${variant}:${search.label}`,
          build,
          `${formatNumber(search.oursMatches, 0)} / ${formatNumber(search.ripgrepMatches, 0)}`,
        );
      }
    });
  }
  for (let round = 0; round < options.rounds; round++) {
    options.log(`  round ${round + 1}/${options.rounds}`);
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const task of tasks) for (const build of order) await task(build);
  }

  const value = (key: string, build: Build): number | undefined => {
    const values = samples
      .filter((sample) => sample.key === key && sample.build === build)
      .map((sample) => sample.value);
    return values.length === 0 ? undefined : median(values);
  };
  const ms = (number: number | undefined): string =>
    formatNumber(number, number !== undefined && number >= 100 ? 0 : 1);
  const met = (ours: number | undefined, limit: number | undefined): string =>
    ours === undefined || limit === undefined ? 'n/a' : ours <= limit ? 'yes' : 'no';
  const rows: string[][] = [];
  const cell = (key: string, build: Build, format: (number: number | undefined) => string = ms): string => {
    const text = notes.get(`${build}:${key}`);
    const number = value(key, build);
    if (number === undefined)
      return text ?? (build === 'baseline' && options.baseline === undefined ? '' : 'n/a');
    return text === undefined ? format(number) : `${format(number)} (${text})`;
  };
  const row = (
    label: string,
    key: string,
    target: string,
    limit: number | undefined,
    ripgrepKey?: string,
    tsserverKey?: string,
    floorKey?: string,
  ): void => {
    rows.push([
      label,
      cell(key, 'ours'),
      cell(key, 'baseline'),
      ripgrepKey === undefined ? '' : ms(value(ripgrepKey, 'ours')),
      tsserverKey === undefined ? '' : ms(value(tsserverKey, 'ours')),
      floorKey === undefined ? '' : ms(value(floorKey, 'ours')),
      target,
      met(value(key, 'ours'), limit),
    ]);
  };
  for (const corpus of corpora) {
    const limit = corpus.name === 'astro' ? 1500 : 3000;
    for (const { tool } of coldTools) {
      if (
        value(`cold:${corpus.name}:${tool}`, 'ours') === undefined &&
        value(`cold:${corpus.name}:${tool}`, 'baseline') === undefined
      )
        continue;
      row(
        `1. ${corpus.name}: \`${tool}\` first answer, fresh process (ms)`,
        `cold:${corpus.name}:${tool}`,
        `≤ ${formatNumber(limit, 0)} ms`,
        limit,
        tool === 'search_text' ? `cold-rg:${corpus.name}:${tool}` : undefined,
        value(`tsserver:${corpus.name}:${tool}`, 'ours') === undefined
          ? undefined
          : `tsserver:${corpus.name}:${tool}`,
        value(`floor:${corpus.name}:${tool}`, 'ours') === undefined
          ? undefined
          : `floor:${corpus.name}:${tool}`,
      );
    }
    const peak = (build: Build): number | undefined => {
      const values = coldTools
        .map(({ tool }) => value(`rss:${corpus.name}:${tool}`, build))
        .filter((entry) => entry !== undefined);
      return values.length === 0 ? undefined : Math.max(...values);
    };
    const tsserverPeaks = Object.keys(tsserverRequests)
      .map((tool) => value(`tsserver-rss:${corpus.name}:${tool}`, 'ours'))
      .filter((entry) => entry !== undefined);
    const tsserverPeak = tsserverPeaks.length === 0 ? undefined : Math.max(...tsserverPeaks);
    const peakOurs = peak('ours');
    const peakBaseline = peak('baseline');
    rows.push([
      `1. ${corpus.name}: peak RSS of those processes, the largest (MB)`,
      formatNumber(peakOurs, 0),
      options.baseline === undefined ? '' : formatNumber(peakBaseline, 0),
      '',
      tsserverPeak === undefined ? '' : formatNumber(tsserverPeak, 0),
      '',
      '≤ 400 MB',
      met(peakOurs, 400),
    ]);
  }
  for (const corpus of corpora) {
    if (value(`warm-up:${corpus.name}`, 'ours') !== undefined) {
      row(
        `2. ${corpus.name}: program warm-up after the first answer, \`CodeIndex#warm\` (what runs in the background between questions) (ms)`,
        `warm-up:${corpus.name}`,
        '',
        undefined,
      );
      row(
        `2. ${corpus.name}: peak RSS after the warm-up (MB)`,
        `warm-up-rss:${corpus.name}`,
        '≤ 400 MB',
        400,
        undefined,
        undefined,
        value(`floor:${corpus.name}:warm-up-rss`, 'ours') === undefined
          ? undefined
          : `floor:${corpus.name}:warm-up-rss`,
      );
    }
    for (const entry of names) {
      const files = corpus.name === 'astro' ? entry.files : undefined;
      row(
        `2. ${corpus.name}: \`get_references ${entry.name}\` warm${files === undefined ? '' : ` (${files} files mention it)`} (ms)`,
        `warm:${corpus.name}:${entry.name}`,
        '≤ 300 ms',
        300,
      );
    }
  }
  for (const [prefix, writer] of [
    ['cache', 'written by the first'],
    ['cache-warmed', 'written by a first that warmed its whole index'],
  ] as const) {
    for (const { tool } of secondProcessTools) {
      const cacheCell = (build: Build): string => {
        if (build === 'baseline' && options.baseline === undefined) return '';
        const text = notes.get(`${build}:${prefix}`);
        if (text !== undefined)
          return `${text}; cold \`get_references\`: ${ms(value(`${prefix}-writer`, build))}`;
        return ms(value(`${prefix}:${tool}`, build));
      };
      rows.push([
        `3. astro: \`${tool}\` first answer of a second process, persistent cache ${writer} (ms)`,
        cacheCell('ours'),
        cacheCell('baseline'),
        '',
        '',
        '',
        '≤ 1,000 ms',
        met(value(`${prefix}:${tool}`, 'ours'), 1000),
      ]);
    }
  }
  row(
    '4. astro: `get_definition` of a name declared in one changed file, after the write (ms)',
    'edit:get_definition',
    '≤ 100 ms',
    100,
  );
  row(
    '4. astro: `get_references` then, counting the 2 added uses (ms)',
    'edit:get_references',
    '≤ 100 ms',
    100,
  );
  for (const variant of rgVersion === undefined ? [] : (['search', 'search-ripgrep'] as const)) {
    for (const searchCase of searchCases()) {
      const key = `${variant}:${searchCase.label}`;
      const ripgrepMs = value(`${variant}-rg:${searchCase.label}`, 'ours');
      const ours = value(key, 'ours');
      const how = variant === 'search' ? 'warm' : 'warm, `ripgrep: true`';
      rows.push([
        `5. astro: \`search_text\` ${how}, ${searchCase.label} (ms; matched lines ours / rg)`,
        cell(key, 'ours'),
        cell(key, 'baseline'),
        ms(ripgrepMs),
        '',
        '',
        `≤ 2x rg (${formatRatio(ours, ripgrepMs)})`,
        met(ours, ripgrepMs === undefined ? undefined : 2 * ripgrepMs),
      ]);
    }
  }

  const described = fileCounts.map(
    (count) =>
      `${count.name}: ${formatNumber(count.ours, 0)} files visible to the tools (${formatNumber(count.scripts, 0)} JS/TS)` +
      (count.ripgrep === undefined ? '' : `, ${formatNumber(count.ripgrep, 0)} to rg with the same excludes`),
  );
  const markdown = [
    `${heading}, ms and MB, medians of ${options.rounds} round${options.rounds === 1 ? '' : 's'}`,
    '',
    `Corpus: ${found.tarball}, unpacked at ${astro}. ${described.join('; ')}.` +
      (twice === undefined ? '' : ' monorepo: astro with its packages/ copied beside it as packages-copy/.'),
    `Warm names (files mentioning each, counted with rg): ${names.map((entry) => `\`${entry.name}\` ${entry.files ?? '?'}`).join(', ')}.` +
      ` ripgrep: ${rgVersion ?? 'not installed'}, timed as a spawned process.` +
      ` tsserver: TypeScript ${tsserverVersion()}'s, a fresh process opening \`${editedFile}\` (its tsconfig project), asked \`navto AstroError\` for \`get_definition\` and \`references\` at the class for \`get_references\`; its RSS cell is its peak.` +
      ' Compiler alone: the floor under those answers, what the TypeScript compiler the index uses costs in a fresh process on files listed and read beforehand (no I/O counted), parsing as the index parses (no JSDoc):' +
      ` its load and the parse of the ${floorFiles?.mentioning ?? '?'} JS/TS files mentioning \`AstroError\` beside \`get_definition\`; those files also bound in a program (no module resolution, no default library) beside \`get_references\`;` +
      ` its load and the parse of all ${floorFiles?.scripts ?? '?'} JS/TS files (the parser already warm) beside \`repo_map\`; the peak RSS of a program over all of them with its checker beside the warm-up's RSS.`,
    '',
    markdownTable(
      [
        'measure',
        'this build',
        options.baseline === undefined ? 'baseline (none)' : `baseline ${options.baseline}`,
        'ripgrep',
        'tsserver',
        'compiler alone',
        'target',
        'met',
      ],
      rows,
    ),
    ...(failures.length === 0 ? [] : ['', 'Failed:', ...failures]),
  ].join('\n');
  return { markdown };
}
