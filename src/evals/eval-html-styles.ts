/** The stylesheet of the evaluation report page (inline; the page's Content-Security-Policy allows only it). */
export const evalHtmlStyles = `
:root { color-scheme: light dark; --fail: #c62828; --pass: #2e7d32; --muted: #6b6b6b; --line: #d0d0d0; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
.notice { border-left: 4px solid var(--fail); padding: .25rem .75rem; }
dl.summary { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; margin: 0; }
dl.summary div { min-width: 7rem; }
dl.summary dt { color: var(--muted); font-size: .8rem; }
dl.summary dd { margin: 0; font-size: 1.2rem; font-variant-numeric: tabular-nums; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
td.number, th.number { text-align: right; font-variant-numeric: tabular-nums; }
tr.failed > td:first-child { border-left: 4px solid var(--fail); }
tr.passed > td:first-child { border-left: 4px solid var(--pass); }
.status-completed { color: var(--pass); }
.status-errored, .status-aborted { color: var(--fail); font-weight: 600; }
.status-not_run { color: var(--muted); }
.score-failed .score { color: var(--fail); font-weight: 600; }
.reason { color: var(--muted); font-size: .85rem; max-width: 28rem; max-height: 6em; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.error { color: var(--fail); white-space: pre-wrap; overflow-wrap: anywhere; }
.case-id { font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
`;
