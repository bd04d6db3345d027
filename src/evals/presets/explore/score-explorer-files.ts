import type { ExplorerReport } from '../../../flows/explorer/explorer-report-schema.js';
import type { ExploreQuestion } from './explore-questions.js';

/** How well an explorer report's files match a question's expected files. */
export interface ExplorerFilesScore {
  /** Expected files named / expected files, from 0 to 1. */
  readonly recall: number;
  /**
   * Named files that are expected or acceptable / named files, from 0 to 1; 0 when the report
   * names no file.
   */
  readonly precision: number;
  /** The distinct files the report names, normalized to repo-relative paths, in report order. */
  readonly named: readonly string[];
  /** Expected files the report does not name. */
  readonly missing: readonly string[];
  /** Named files that are neither expected nor acceptable. */
  readonly extra: readonly string[];
}

/** Options of {@link scoreExplorerFiles}. */
export interface ScoreExplorerFilesOptions {
  /**
   * The repository folder the explorer ran in; an absolute path under it is made relative to it.
   * Without it, absolute paths are still recognized by the folder the eval keeps the repository
   * in (`node_modules/axios/`, `code-index/<fixture>/`).
   */
  readonly repositoryFolder?: string;
}

/**
 * Scores the files an explorer report names against a question's expected and acceptable files.
 *
 * The files a report names are the `file` of every evidence entry of its findings: evidence is
 * where the report says the answer lives. `repoMap` entries do not count: the map orients a reader
 * in the repository (entrypoints, folders, configs) whatever the question, so counting it would
 * reward listing much of the repository, and charge precision for a correct orientation.
 *
 * Each path is normalized before comparing: backslashes become `/`, a leading `./` is dropped, a
 * trailing line reference (`:12`, `:12-30`, `#L12`) is dropped, and a prefix up to the repository
 * folder is removed (an absolute path, `node_modules/axios/lib/x.js`, or `axios/lib/x.js`).
 *
 * With no file named, recall is 0 (every question expects at least one file) and precision is 0
 * too: a report that points at nothing has not been precise, and 1 would let empty answers raise a
 * model's average precision.
 */
export function scoreExplorerFiles(
  report: ExplorerReport,
  question: ExploreQuestion,
  options: ScoreExplorerFilesOptions = {},
): ExplorerFilesScore {
  const expected = new Set(question.expectedFiles);
  const known = new Set([...question.expectedFiles, ...(question.acceptableFiles ?? [])]);
  const named: string[] = [];
  for (const finding of report.findings) {
    for (const evidence of finding.evidence) {
      const file = normalizeReportedFile(evidence.file, question.repository, known, options.repositoryFolder);
      if (file !== '' && !named.includes(file)) named.push(file);
    }
  }
  const namedSet = new Set(named);
  const missing = question.expectedFiles.filter((file) => !namedSet.has(file));
  const extra = named.filter((file) => !known.has(file));
  const expectedNamed = question.expectedFiles.filter((file) => namedSet.has(file)).length;
  return {
    recall: expected.size === 0 ? 0 : expectedNamed / expected.size,
    precision: named.length === 0 ? 0 : (named.length - extra.length) / named.length,
    named,
    missing,
    extra,
  };
}

/**
 * Turns a path as a model wrote it into a repo-relative one. A prefix is only stripped when the
 * path as written is not already a known file of the question, so a real folder that happens to
 * share the repository's name is left alone.
 */
function normalizeReportedFile(
  reported: string,
  repository: string,
  known: ReadonlySet<string>,
  repositoryFolder: string | undefined,
): string {
  let path = reported
    .trim()
    .replace(/\\/g, '/')
    .replace(/#L\d+(-L?\d+)?$/, '')
    .replace(/:\d+(-\d+)?$/, '')
    .replace(/\/{2,}/g, '/');
  path = stripDotSlash(path);
  if (known.has(path)) return path;

  if (repositoryFolder !== undefined) {
    const folder = repositoryFolder.replace(/\\/g, '/').replace(/\/+$/, '') + '/';
    if (path.startsWith(folder)) return stripDotSlash(path.slice(folder.length));
  }
  const marker = repository === 'axios' ? 'node_modules/axios/' : `code-index/${repository}/`;
  const markerAt = path.lastIndexOf(marker);
  if (markerAt !== -1 && (markerAt === 0 || path[markerAt - 1] === '/')) {
    return path.slice(markerAt + marker.length);
  }
  if (path.startsWith(`${repository}/`)) return path.slice(repository.length + 1);
  return path;
}

function stripDotSlash(path: string): string {
  let result = path;
  while (result.startsWith('./')) result = result.slice(2);
  return result;
}
