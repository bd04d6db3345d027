/**
 * What the TypeScript compiler alone costs on a corpus, in a fresh process: the floor under the
 * scale suite's cold answers, which must agree with the compiler. Loading it; parsing the JS/TS
 * files that mention a name (what a cold `get_definition` parses) and binding them in a program
 * (what a cold `get_references` needs before it checks anything); parsing every JS/TS file (what
 * a map of the repository reads); and the peak RSS of a program over every JS/TS file with its
 * checker made (what a warm index holds). Parsed as the index parses (no JSDoc, parent pointers
 * set); files are listed and read before any timing, so no I/O is counted.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type * as TypeScript from 'typescript';
import type * as Explore from 'tool-orchestrator/explore';

export interface CompilerFloorJob {
  readonly root: string;
  /** The name whose mentioning files are parsed and bound. */
  readonly name: string;
}

export interface CompilerFloorResult {
  readonly ok: boolean;
  readonly failure?: string;
  /** `require('typescript')`, the library's own copy. */
  readonly loadMs?: number;
  readonly mentioningFiles?: number;
  /** Parsing the JS/TS files whose text holds `name`, right after the load (the parser's code still cold). */
  readonly parseMentioningMs?: number;
  /** Then a program over those files (no module resolution, no default library) and its checker: the binding. */
  readonly bindMentioningMs?: number;
  readonly scriptFiles?: number;
  /** Then parsing every JS/TS file: after the parses above, so the parser's code is already warm. */
  readonly parseAllMs?: number;
  /** Peak RSS after a program over every JS/TS file and its checker (binding them all), MB. */
  readonly programPeakRssMb?: number;
}

const scriptPattern = '*.{js,jsx,ts,tsx,mjs,cjs,mts,cts}';

function peakRssMb(): number {
  return Math.round(process.resourceUsage().maxRSS / 102.4) / 10;
}

async function measure(job: CompilerFloorJob): Promise<CompilerFloorResult> {
  // The compiler the index loads: resolved from the library, not from the bench.
  const library = createRequire(import.meta.resolve('tool-orchestrator/explore'));
  let started = performance.now();
  const ts = library('typescript') as typeof TypeScript;
  const loadMs = performance.now() - started;

  const { Sandbox } = (await import('tool-orchestrator/explore')) as typeof Explore;
  const files = await new Sandbox({ root: job.root }).listFiles({ pattern: scriptPattern });
  const texts = new Map(files.map((file) => [file, readFileSync(join(job.root, file), 'utf8')]));
  const mentioning = files.filter((file) => texts.get(file)!.includes(job.name));

  const parsed = new Map<string, TypeScript.SourceFile>();
  const parse = (file: string): TypeScript.SourceFile => {
    const sourceFile = ts.createSourceFile(
      join(job.root, file),
      texts.get(file)!,
      { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone },
      true,
    );
    parsed.set(sourceFile.fileName, sourceFile);
    return sourceFile;
  };
  const options: TypeScript.CompilerOptions = {
    allowJs: true,
    noLib: true,
    noResolve: true,
    noEmit: true,
    types: [],
    jsx: ts.JsxEmit.Preserve,
  };
  const bound = (rootFiles: readonly string[]): void => {
    const host = ts.createCompilerHost(options);
    host.getSourceFile = (fileName) => parsed.get(fileName);
    const program = ts.createProgram({
      rootNames: rootFiles.map((file) => join(job.root, file)),
      options,
      host,
    });
    program.getTypeChecker();
  };

  started = performance.now();
  for (const file of mentioning) parse(file);
  const parseMentioningMs = performance.now() - started;
  started = performance.now();
  bound(mentioning);
  const bindMentioningMs = performance.now() - started;

  parsed.clear();
  started = performance.now();
  for (const file of files) parse(file);
  const parseAllMs = performance.now() - started;
  bound(files);
  return {
    ok: true,
    loadMs,
    mentioningFiles: mentioning.length,
    parseMentioningMs,
    bindMentioningMs,
    scriptFiles: files.length,
    parseAllMs,
    programPeakRssMb: peakRssMb(),
  };
}

const job = JSON.parse(process.argv[2] ?? '{}') as CompilerFloorJob;
measure(job).then(
  (result) => {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    process.exit(0);
  },
  (error: unknown) => {
    process.stdout.write(`${JSON.stringify({ ok: false, failure: (error as Error).message })}\n`);
    process.exit(0);
  },
);
