/** The viewer's stylesheet: light and dark, and cheap to lay out for long traces (`content-visibility`). */
export const viewerStyles = `
:root {
  color-scheme: light dark;
  --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #f6f8fa;
  --model: #3b82f6; --tools: #16a34a; --warn: #b45309; --warn-bg: #fff7e6; --bad: #cf222e; --bad-bg: #ffebe9;
  --select: #0969da;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --panel: #161b22;
    --warn: #d29922; --warn-bg: #2b2111; --bad: #f85149; --bad-bg: #2d1214; --select: #58a6ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
header.top { position: sticky; top: 0; z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line); padding: 10px 16px 8px; }
h1 { font-size: 17px; margin: 0 0 6px; overflow-wrap: anywhere; }
.totals { display: flex; flex-wrap: wrap; gap: 6px 14px; color: var(--muted); }
.total b { color: var(--fg); font-variant-numeric: tabular-nums; }
.total.warn b { color: var(--warn); }
.total.bad b { color: var(--bad); }
.toolbar { display: flex; align-items: center; gap: 12px; margin-top: 8px; flex-wrap: wrap; }
#filter { width: min(420px, 100%); padding: 5px 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); color: var(--fg); font: inherit; }
.filter-count, .keys { color: var(--muted); font-size: 12px; }
main.runs { padding: 8px 16px 40px; }
.run { border: 1px solid var(--line); border-radius: 8px; margin: 10px 0; background: var(--bg); }
.run.failed { border-color: var(--bad); }
.run-head { display: flex; align-items: baseline; gap: 8px; padding: 8px 10px; background: var(--panel); border-radius: 8px 8px 0 0; flex-wrap: wrap; }
.run-toggle { border: 0; background: none; color: var(--fg); cursor: pointer; font: inherit; padding: 0 2px; }
.run-kind { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.run-label { font-weight: 600; overflow-wrap: anywhere; }
.run-meta { color: var(--muted); font-size: 12px; }
.turns { padding: 0 10px 6px; }
.turn { border-top: 1px solid var(--line); padding: 6px 0; content-visibility: auto; contain-intrinsic-size: auto 64px; }
.turn:first-child { border-top: 0; }
.turn-head { display: flex; align-items: center; gap: 10px; color: var(--muted); font-size: 12px; }
.turn-label { font-weight: 600; color: var(--fg); min-width: 60px; }
.turn-bar { display: inline-flex; width: 180px; height: 8px; background: var(--panel); border-radius: 4px; overflow: hidden; flex: none; }
.bar-model { background: var(--model); }
.bar-tools { background: var(--tools); }
.items { margin: 4px 0 0 12px; }
.item { border-left: 3px solid transparent; margin: 2px 0; border-radius: 4px; outline: none; }
.item-model { border-left-color: var(--model); }
.item-tool { border-left-color: var(--tools); }
.item-tool.failed { border-left-color: var(--bad); background: var(--bad-bg); }
.item-warning { border-left-color: var(--warn); background: var(--warn-bg); }
.item-error { border-left-color: var(--bad); background: var(--bad-bg); }
.item-event { border-left-color: var(--muted); }
.item.selected { box-shadow: 0 0 0 2px var(--select); }
.item.context > .item-head { opacity: .6; }
.item-head { display: flex; align-items: baseline; gap: 8px; padding: 3px 8px; min-width: 0; }
.item-head[role=button] { cursor: pointer; }
.item-head[aria-expanded]::before { content: '▸'; color: var(--muted); width: 10px; flex: none; }
.item-head[aria-expanded=true]::before { content: '▾'; }
.item-head .kind { font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); flex: none; }
.item-head .name { font-weight: 600; flex: none; }
.item-head .meta { color: var(--muted); font-size: 12px; flex: none; }
.item-head .preview { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 12px; color: var(--muted); overflow: hidden; white-space: nowrap; text-overflow: ellipsis; min-width: 0; flex: 1; }
.item-head .message { overflow-wrap: anywhere; flex: 1; }
.item-head .status { font-size: 12px; flex: none; }
.item-tool.failed .status, .item-error .name { color: var(--bad); font-weight: 600; }
.item-warning .name { color: var(--warn); font-weight: 600; }
.item-head .duration { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; flex: none; }
.item-body { padding: 4px 10px 10px 26px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 6px; font-size: 12px; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.block h4 { margin: 8px 0 2px; font-size: 11px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.block pre { margin: 0; padding: 6px 8px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 480px; overflow: auto; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
.block.error pre { border-color: var(--bad); }
.show-all { margin-top: 4px; font: inherit; font-size: 12px; cursor: pointer; }
details.reasoning summary, details.system summary { cursor: pointer; color: var(--muted); font-size: 12px; margin-top: 6px; }
.subruns { margin: 2px 0 6px 26px; }
.subrun { margin: 6px 0; }
.detached { padding: 0 10px 8px; }
.detached h3 { font-size: 12px; color: var(--muted); margin: 6px 0; }
.filtered-out { display: none !important; }
.empty { color: var(--muted); }
`;
