import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { EvalReport } from './eval-report.js';
import { parseReport } from './report-schema.js';
import { EvalReportError } from '../errors/eval-report-error.js';

/** Writes a report as JSON (two-space indented), making its folder when missing. */
export async function writeReport(report: EvalReport, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`);
}

/**
 * Reads a report `writeReport` wrote, checking it field by field.
 *
 * @throws EvalReportError when the file is missing, not JSON, of another version, or a field is wrong.
 */
export async function readReport(path: string): Promise<EvalReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new EvalReportError({
      path,
      message: `cannot read the evaluation report ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new EvalReportError({
      path,
      message: `${path} is not JSON (${(error as Error).message}): is it an evaluation report written by writeReport()?`,
      cause: error,
    });
  }
  return parseReport(value, path);
}
