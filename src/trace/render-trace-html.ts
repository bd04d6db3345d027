import { createHash } from 'node:crypto';
import type { TraceEvent } from '../tracing/trace-events.js';
import { escapeHtml } from './escape-html.js';
import { buildTraceModel } from './viewer/build-trace-model.js';
import type { ModelPrices } from './viewer/trace-model.js';
import { viewerClient } from './viewer/viewer-client.js';
import { viewerStyles } from './viewer/viewer-styles.js';

/** Options of {@link renderTraceHtml}. */
export interface RenderTraceHtmlOptions {
  /** The page title. @default "Trace: " and the first run's first user message */
  readonly title?: string;
  /**
   * Prices per model name (as the responses report it), for a cost total; without them no cost
   * is shown. @example { 'deepseek-v4-flash': { inputPerMillion: 0.27, outputPerMillion: 1.1 } }
   */
  readonly prices?: ModelPrices;
}

const script = `(${viewerClient.toString()})();`;
const sha256 = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
// Only the page's own script and stylesheet run: nothing is fetched, no inline handler or injected
// element can act.
const contentSecurityPolicy = [
  "default-src 'none'",
  `script-src ${sha256(script)}`,
  `style-src ${sha256(viewerStyles)}`,
  "img-src 'none'",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * Renders trace events as one self-contained HTML page: every run (subagents nested under the
 * call that spawned them), a timeline of turns, each model and tool call (collapsed, long payloads
 * cut with a way to see all), warnings and errors highlighted, totals, a filter box and keyboard
 * navigation. The page loads nothing: its Content-Security-Policy allows only its own script and
 * styles. The events are embedded as JSON that cannot end the script element, and are shown only
 * as text. Event types this version does not know are shown generically.
 *
 * @example
 * await writeFile('run.html', renderTraceHtml(await readJsonl('run.jsonl'), { title: 'My run' }));
 */
export function renderTraceHtml(events: readonly TraceEvent[], options: RenderTraceHtmlOptions = {}): string {
  const model = buildTraceModel(events, options);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="tool-orchestrator">
<title>${escapeHtml(model.title)}</title>
<style>${viewerStyles}</style>
</head>
<body>
<div id="app"><noscript>This trace viewer needs JavaScript.</noscript></div>
<script type="application/json" id="trace-data">${embeddedJson(model)}</script>
<script>${script}</script>
</body>
</html>
`;
}

/** JSON that is safe inside a script element: no `<` (so no `</script>` or `<!--`), no `>` or `&`. */
function embeddedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
