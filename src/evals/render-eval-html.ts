import { createHash } from 'node:crypto';
import type { EvalCaseResult, EvalReport, EvalScore } from './eval-report.js';
import { evalHtmlStyles } from './eval-html-styles.js';
import { escapeHtml } from '../trace/escape-html.js';

/** Options of {@link renderEvalHtml}. */
export interface RenderEvalHtmlOptions {
  /** The page title. @default "Evaluation: " and the report's name, else "Evaluation report" */
  readonly title?: string;
  /**
   * Where each case's trace page is, as a URL relative to the report page; a case without one gets
   * no link. `writeEvalHtml` writes the trace pages and passes this for you.
   * @example (result, index) => `traces/${index}.html`
   */
  readonly traceLink?: (result: EvalCaseResult, index: number) => string | undefined;
}

const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// No script at all, and only the page's own stylesheet: nothing is fetched, no injected element can act.
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'none'",
  `style-src ${sha256(evalHtmlStyles)}`,
  "img-src 'none'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** A share as a percentage with one decimal, as the CLI's summary prints it: `66.7%`. */
const formatPercent = (share: number): string => `${(share * 100).toFixed(1)}%`;
/** A score or mean with three decimals: `0.667`. */
const formatScore = (score: number): string => score.toFixed(3);
const formatSeconds = (milliseconds: number): string => `${(milliseconds / 1000).toFixed(2)} s`;
const formatCount = (count: number): string => count.toLocaleString('en-US');
const formatUsd = (usd: number): string => `$${usd.toFixed(usd >= 1 ? 2 : 6)}`;

/**
 * Renders an evaluation report as one self-contained HTML page: the summary (cases, passed, pass
 * rate, mean score, duration, and tokens and cost when the cases reported them), each scorer's
 * mean and pass count, and a table of the cases (failing ones first) with their status, error,
 * and each scorer's score and reason. With `traceLink`, each case links to its trace page. The
 * page runs no script and loads nothing; every value from the report is escaped.
 *
 * @example
 * await writeFile('report.html', renderEvalHtml(report, { title: 'Support bot, nightly' }));
 */
export function renderEvalHtml(report: EvalReport, options: RenderEvalHtmlOptions = {}): string {
  const title =
    options.title ?? (report.name === undefined ? 'Evaluation report' : `Evaluation: ${report.name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tool-orchestrator">
<title>${escapeHtml(title)}</title>
<style>${evalHtmlStyles}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="meta">Started ${escapeHtml(report.startedAt)} · report format version ${report.version}</p>
${report.aborted ? '<p class="notice" data-aborted="true">The evaluation was aborted: some cases did not run.</p>\n' : ''}${summarySection(report)}
${scorersSection(report)}
${casesSection(report, options.traceLink)}
</body>
</html>
`;
}

function summarySection({ summary, durationMs }: EvalReport): string {
  const items: [key: string, label: string, value: string][] = [
    ['cases', 'Cases', formatCount(summary.cases)],
    ['passed', 'Passed', `${formatCount(summary.passed)} / ${formatCount(summary.cases)}`],
    ['pass-rate', 'Pass rate', formatPercent(summary.passRate)],
    ['mean-score', 'Mean score', formatScore(summary.meanScore)],
    ['duration', 'Duration', formatSeconds(durationMs)],
  ];
  if (summary.errored > 0) items.push(['errored', 'Errored', formatCount(summary.errored)]);
  if (summary.aborted > 0) items.push(['aborted', 'Aborted', formatCount(summary.aborted)]);
  if (summary.notRun > 0) items.push(['not-run', 'Not run', formatCount(summary.notRun)]);
  if (summary.usage.totalTokens > 0) {
    items.push(['tokens', 'Tokens', formatCount(summary.usage.totalTokens)]);
  }
  if (summary.costUsd !== undefined) items.push(['cost', 'Cost', formatUsd(summary.costUsd)]);
  const entries = items
    .map(
      ([key, label, value]) =>
        `<div><dt>${label}</dt><dd data-summary="${key}">${escapeHtml(value)}</dd></div>`,
    )
    .join('\n');
  return `<section id="summary"><h2>Summary</h2>\n<dl class="summary">\n${entries}\n</dl></section>`;
}

function scorersSection({ summary }: EvalReport): string {
  if (summary.scorers.length === 0)
    return '<section id="scorers"><h2>Scorers</h2><p>No scorers.</p></section>';
  const rows = summary.scorers
    .map(
      (scorer) => `<tr data-scorer="${escapeHtml(scorer.name)}">
<td>${escapeHtml(scorer.name)}</td>
<td class="number" data-field="mean">${formatScore(scorer.mean)}</td>
<td class="number" data-field="pass-rate">${formatPercent(scorer.passRate)}</td>
<td class="number" data-field="passed">${formatCount(scorer.passed)}</td>
<td class="number" data-field="failed">${formatCount(scorer.failed)}</td>
<td class="number" data-field="threshold">${formatScore(scorer.threshold)}</td>
<td class="number" data-field="scorer-failures">${formatCount(scorer.scorerFailures)}</td>
</tr>`,
    )
    .join('\n');
  return `<section id="scorers"><h2>Scorers</h2>
<table>
<thead><tr><th>Scorer</th><th class="number">Mean</th><th class="number">Pass rate</th><th class="number">Passed</th><th class="number">Failed</th><th class="number">Threshold</th><th class="number">Scorer failures</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></section>`;
}

/** Failing cases first (then the cases not run), each group in the report's order. */
function caseOrder(result: EvalCaseResult): number {
  if (result.status === 'not_run') return 2;
  return result.passed ? 1 : 0;
}

function casesSection(report: EvalReport, traceLink: RenderEvalHtmlOptions['traceLink']): string {
  const scorerNames = report.summary.scorers.map((scorer) => scorer.name);
  const ordered = report.cases
    .map((result, index) => ({ result, index }))
    .sort((left, right) => caseOrder(left.result) - caseOrder(right.result) || left.index - right.index);
  const rows = ordered
    .map(({ result, index }) => caseRow(result, scorerNames, traceLink?.(result, index)))
    .join('\n');
  const scorerHeads = scorerNames.map((name) => `<th>${escapeHtml(name)}</th>`).join('');
  return `<section id="cases"><h2>Cases</h2>
<table>
<thead><tr><th>Case</th><th>Result</th><th>Status</th>${scorerHeads}<th class="number">Duration</th><th>Trace</th></tr></thead>
<tbody>
${rows}
</tbody>
</table></section>`;
}

function caseRow(result: EvalCaseResult, scorerNames: readonly string[], link: string | undefined): string {
  const failed = !result.passed && result.status !== 'not_run';
  const verdict = result.status === 'not_run' ? 'not run' : result.passed ? 'passed' : 'FAILED';
  const error =
    result.error === undefined
      ? ''
      : `<div class="error">${escapeHtml(`${result.error.name}: ${result.error.message}`)}</div>`;
  const scores = scorerNames.map((name) => scoreCell(name, result.scores[name])).join('');
  const trace =
    link === undefined
      ? '<td class="trace">–</td>'
      : `<td class="trace"><a class="trace-link" href="${escapeHtml(link)}">trace</a></td>`;
  return `<tr class="case ${failed ? 'failed' : result.passed ? 'passed' : 'not-run'}" data-case="${escapeHtml(result.id)}">
<td class="case-id">${escapeHtml(result.id)}</td>
<td data-field="result">${verdict}</td>
<td data-field="status"><span class="status-${result.status}">${result.status}</span>${error}</td>${scores}
<td class="number" data-field="duration">${formatSeconds(result.durationMs)}</td>
${trace}
</tr>`;
}

function scoreCell(name: string, score: EvalScore | undefined): string {
  if (score === undefined) return `<td data-scorer="${escapeHtml(name)}">–</td>`;
  const reason = escapeHtml(score.reason);
  return `<td class="${score.passed ? 'score-passed' : 'score-failed'}" data-scorer="${escapeHtml(name)}" title="${reason}"><span class="score">${formatScore(score.score)}</span>${score.scorerFailed === true ? ' (scorer failed)' : ''}<div class="reason">${reason}</div></td>`;
}
