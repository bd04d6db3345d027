import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { EvalCaseResult, EvalReport } from './eval-report.js';
import { renderEvalHtml } from './render-eval-html.js';
import { renderTraceHtml } from '../trace/render-trace-html.js';

/** Options of {@link writeEvalHtml}. */
export interface WriteEvalHtmlOptions {
  /** The report page's title. @default "Evaluation: " and the report's name */
  readonly title?: string;
}

/** What {@link writeEvalHtml} wrote. */
export interface WrittenEvalHtml {
  /** The report page. */
  readonly path: string;
  /** The folder of trace pages beside it (absent when no case had traces). */
  readonly tracesDirectory?: string;
  /** One trace page per case that had traces, in the report's order. */
  readonly tracePages: readonly { readonly caseId: string; readonly path: string }[];
}

/**
 * Writes an evaluation report as a self-contained HTML page (see `renderEvalHtml`) and, beside it
 * in `<name>-traces/`, one trace viewer page (`renderTraceHtml`) per case that has traces, which
 * the report links to relatively: keep the page and its folder together when moving them. Makes
 * the page's folder when missing; trace pages of an earlier run with other case ids stay.
 *
 * @example
 * await writeEvalHtml(report, 'eval-report.html'); // and eval-report-traces/<case id>.html
 */
export async function writeEvalHtml(
  report: EvalReport,
  path: string,
  options: WriteEvalHtmlOptions = {},
): Promise<WrittenEvalHtml> {
  const folderName = `${basename(path, extname(path))}-traces`;
  const tracesDirectory = join(dirname(path), folderName);
  const fileNames = traceFileNames(report.cases);
  const tracePages: { caseId: string; path: string }[] = [];
  if (fileNames.size > 0) await mkdir(tracesDirectory, { recursive: true });
  else await mkdir(dirname(path), { recursive: true });
  for (const [index, fileName] of fileNames) {
    const result = report.cases[index]!;
    const tracePath = join(tracesDirectory, fileName);
    await writeFile(tracePath, renderTraceHtml(result.traces, { title: `Case ${result.id}` }));
    tracePages.push({ caseId: result.id, path: tracePath });
  }
  const html = renderEvalHtml(report, {
    ...(options.title === undefined ? {} : { title: options.title }),
    traceLink: (_result, index) => {
      const fileName = fileNames.get(index);
      return fileName === undefined
        ? undefined
        : `${encodeURIComponent(folderName)}/${encodeURIComponent(fileName)}`;
    },
  });
  await writeFile(path, html);
  return fileNames.size > 0 ? { path, tracesDirectory, tracePages } : { path, tracePages };
}

/**
 * A file name per case with traces, by the case's index: the id with anything but letters, digits,
 * `_` and `-` replaced by `_`, cut to 80 characters, and a `-2`, `-3`... when two would clash
 * (compared without case, for case-insensitive file systems).
 */
function traceFileNames(cases: readonly EvalCaseResult[]): Map<number, string> {
  const names = new Map<number, string>();
  const taken = new Set<string>();
  cases.forEach((result, index) => {
    if (result.traces.length === 0) return;
    const stem = result.id.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80) || 'case';
    let name = stem;
    for (let suffix = 2; taken.has(name.toLowerCase()); suffix++) name = `${stem}-${suffix}`;
    taken.add(name.toLowerCase());
    names.set(index, `${name}.html`);
  });
  return names;
}
