/// <reference lib="dom" />
// The viewer's browser code. It runs in the page, not in Node: `renderTraceHtml` embeds
// `viewerClient.toString()`, so the function must stay self-contained (no imports at run time, no
// helpers from outside it). Everything from the trace goes into the page through `textContent`,
// never as HTML.
import type {
  ItemView,
  ModelItem,
  NoticeItem,
  OtherItem,
  RunView,
  ToolItem,
  TraceModel,
  TurnView,
} from './trace-model.js';

/** Renders the embedded trace model into `#app` and wires the filter and keyboard navigation. */
export function viewerClient(): void {
  interface ItemRecord {
    readonly element: HTMLElement;
    readonly head: HTMLElement;
    /** Built on first expand; long traces would otherwise carry thousands of empty ones. */
    body: HTMLElement | undefined;
    readonly expandable: boolean;
    readonly item: ItemView;
    readonly runs: RunRecord[];
    haystack: string | undefined;
  }
  interface TurnRecord {
    readonly element: HTMLElement;
    readonly items: ItemRecord[];
  }
  interface RunRecord {
    readonly element: HTMLElement;
    readonly turns: TurnRecord[];
    readonly detached: RunRecord[];
  }

  const preview = 2000;
  const dataElement = document.getElementById('trace-data');
  const model = JSON.parse(dataElement?.textContent ?? 'null') as TraceModel;
  const app = document.getElementById('app') as HTMLElement;
  const records: ItemRecord[] = [];
  const rootRuns: RunRecord[] = [];
  const tasks: (() => void)[] = [];
  let nextTask = 0;
  let selected = -1;
  let filterText: string[] = [];
  let filterTools: string[] = [];

  function element(tag: string, className?: string, text?: string): HTMLElement {
    const node = document.createElement(tag);
    if (className !== undefined) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function formatMs(milliseconds: number | null): string {
    if (milliseconds === null) return '…';
    if (milliseconds < 1) return `${milliseconds.toFixed(2)} ms`;
    if (milliseconds < 1000) return `${Math.round(milliseconds)} ms`;
    if (milliseconds < 60_000) return `${(milliseconds / 1000).toFixed(1)} s`;
    return `${Math.floor(milliseconds / 60_000)} min ${Math.round((milliseconds % 60_000) / 1000)} s`;
  }

  /** 12,345, with a regular expression: `toLocaleString` is slow on a long trace's many counts. */
  function formatCount(value: number): string {
    return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  }

  function oneLine(text: string, max: number): string {
    const flat = text.replace(/\s+/g, ' ').trim();
    return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
  }

  function pretty(text: string): string {
    if (text.length > 200_000) return text;
    const trimmed = text.trim();
    if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return text;
    try {
      return JSON.stringify(JSON.parse(trimmed), null, 2);
    } catch {
      return text;
    }
  }

  /** A labelled block of text, cut at `preview` characters with a button that shows the rest. */
  function textBlock(label: string, text: string, className?: string): HTMLElement {
    const section = element('section', `block${className === undefined ? '' : ` ${className}`}`);
    section.append(element('h4', undefined, label));
    const pre = element('pre');
    section.append(pre);
    if (text.length <= preview) {
      pre.textContent = text;
      return section;
    }
    pre.textContent = `${text.slice(0, preview)}…`;
    const more = element('button', 'show-all', `Show all (${formatCount(text.length)} characters)`);
    more.addEventListener('click', () => {
      pre.textContent = text;
      more.remove();
    });
    section.append(more);
    return section;
  }

  function fact(list: HTMLElement, name: string, value: string): void {
    list.append(element('dt', undefined, name), element('dd', undefined, value));
  }

  function total(
    container: HTMLElement,
    key: string,
    value: string,
    label: string,
    className?: string,
  ): void {
    const node = element('span', `total${className === undefined ? '' : ` ${className}`}`);
    node.dataset['total'] = key;
    node.append(element('b', undefined, value), document.createTextNode(` ${label}`));
    container.append(node);
  }

  function renderHeader(): HTMLInputElement {
    const totals = model.totals;
    const header = element('header', 'top');
    header.append(element('h1', undefined, model.title));
    const line = element('div', 'totals');
    total(line, 'runs', formatCount(totals.runs), totals.runs === 1 ? 'run' : 'runs');
    total(line, 'turns', formatCount(totals.turns), totals.turns === 1 ? 'turn' : 'turns');
    total(
      line,
      'tool-calls',
      formatCount(totals.toolCalls),
      totals.toolCalls === 1 ? 'tool call' : 'tool calls',
    );
    total(
      line,
      'tokens',
      `${formatCount(totals.inputTokens)} in / ${formatCount(totals.outputTokens)} out`,
      `tokens${totals.reasoningTokens > 0 ? ` (${formatCount(totals.reasoningTokens)} reasoning)` : ''}${totals.cachedTokens > 0 ? ` (${formatCount(totals.cachedTokens)} cached)` : ''}`,
    );
    if (totals.costUsd !== null) {
      total(
        line,
        'cost',
        `$${totals.costUsd.toFixed(4)}`,
        totals.unpricedCalls > 0 ? `(${totals.unpricedCalls} calls unpriced)` : 'cost',
      );
    }
    total(line, 'wall', formatMs(totals.wallMs), 'wall time');
    total(line, 'events', formatCount(totals.events), totals.events === 1 ? 'event' : 'events');
    if (totals.toolErrors > 0)
      total(line, 'tool-errors', formatCount(totals.toolErrors), 'tool errors', 'bad');
    if (totals.warnings > 0) total(line, 'warnings', formatCount(totals.warnings), 'warnings', 'warn');
    if (totals.errors > 0) total(line, 'errors', formatCount(totals.errors), 'errors', 'bad');
    header.append(line);
    const toolbar = element('div', 'toolbar');
    const input = document.createElement('input');
    input.type = 'search';
    input.id = 'filter';
    input.placeholder = 'Filter by text, or tool:name (press /)';
    input.setAttribute('aria-label', 'Filter tool calls and model calls');
    toolbar.append(input, element('span', 'filter-count'));
    toolbar.append(
      element(
        'span',
        'keys',
        'j/k or ↑/↓ move · Enter open · n/p next/previous problem · / filter · Esc clear',
      ),
    );
    header.append(toolbar);
    app.append(header);
    return input;
  }

  function itemHead(record: { head: HTMLElement }, parts: (string | [string, string])[]): void {
    for (const part of parts) {
      if (typeof part === 'string') record.head.append(document.createTextNode(part));
      else record.head.append(element('span', part[0], part[1]));
    }
  }

  function renderItem(item: ItemView, into: HTMLElement, depth: number): ItemRecord {
    const expandable = item.kind !== 'warning' && item.kind !== 'error';
    const node = element('div', `item item-${item.kind}`);
    node.tabIndex = -1;
    const head = element('div', 'item-head');
    node.append(head);
    if (expandable) {
      head.setAttribute('role', 'button');
      head.setAttribute('aria-expanded', 'false');
    }
    const record: ItemRecord = {
      element: node,
      head,
      body: undefined,
      expandable,
      item,
      runs: [],
      haystack: undefined,
    };
    if (item.kind === 'model') {
      const tokens =
        item.inputTokens === null
          ? ''
          : `${formatCount(item.inputTokens)} → ${formatCount(item.outputTokens ?? 0)} tokens`;
      itemHead(record, [
        ['kind', item.finalAnswer ? 'final answer' : 'model'],
        ['name', item.model ?? 'model'],
        ['meta', [tokens, item.finishReason ?? ''].filter((part) => part !== '').join(' · ')],
        [
          'preview',
          oneLine(
            item.content ?? (item.toolCallNames.length > 0 ? `calls ${item.toolCallNames.join(', ')}` : ''),
            140,
          ),
        ],
        ['duration', formatMs(item.durationMs)],
      ]);
    } else if (item.kind === 'tool') {
      node.dataset['tool'] = item.name;
      if (item.error !== null) node.classList.add('failed');
      itemHead(record, [
        ['kind', 'tool'],
        ['name', item.name],
        ['preview', oneLine(item.arguments, 140)],
        [
          'status',
          item.error !== null ? (item.errorCode ?? 'error') : item.durationMs === null ? 'no result' : 'ok',
        ],
        ['duration', formatMs(item.durationMs)],
      ]);
    } else if (item.kind === 'event') {
      itemHead(record, [
        ['kind', 'event'],
        ['name', item.type],
        ['preview', oneLine(JSON.stringify(item.data) ?? '', 140)],
      ]);
    } else {
      itemHead(record, [
        ['kind', item.kind === 'warning' ? '⚠ warning' : '✖ error'],
        ['name', item.code ?? item.name ?? ''],
        ['message', item.message],
      ]);
    }
    into.append(node);
    records.push(record);
    if (item.kind === 'tool' && item.children.length > 0) {
      const children = element('div', 'subruns');
      node.append(children);
      for (const run of item.children) record.runs.push(renderRun(run, children, depth + 1, true));
    }
    return record;
  }

  function buildBody(record: ItemRecord): HTMLElement {
    if (record.body !== undefined) return record.body;
    const body = element('div', 'item-body');
    body.hidden = true;
    record.head.after(body);
    record.body = body;
    const item = record.item;
    const facts = element('dl', 'facts');
    body.append(facts);
    if (item.kind === 'model') buildModelBody(item, body, facts);
    else if (item.kind === 'tool') buildToolBody(item, body, facts);
    else if (item.kind === 'event') buildEventBody(item, body, facts);
    return body;
  }

  function buildModelBody(item: ModelItem, body: HTMLElement, facts: HTMLElement): void {
    fact(facts, 'model', item.model ?? 'not reported');
    fact(facts, 'finish reason', item.finishReason ?? 'not reported');
    fact(facts, 'duration', formatMs(item.durationMs));
    if (item.inputTokens !== null) {
      fact(
        facts,
        'tokens',
        `${formatCount(item.inputTokens)} in${item.cachedTokens ? ` (${formatCount(item.cachedTokens)} cached)` : ''}, ${formatCount(item.outputTokens ?? 0)} out${item.reasoningTokens ? ` (${formatCount(item.reasoningTokens)} reasoning)` : ''}`,
      );
    }
    if (item.costUsd !== null) fact(facts, 'cost', `$${item.costUsd.toFixed(5)}`);
    fact(facts, 'messages sent', formatCount(item.messageCount));
    if (item.deltas > 0) fact(facts, 'streamed', `${formatCount(item.deltas)} deltas`);
    if (item.toolCallNames.length > 0) fact(facts, 'tool calls', item.toolCallNames.join(', '));
    for (const prompt of item.prompts) {
      if (prompt.role !== 'system') {
        body.append(textBlock(`${prompt.role} message`, prompt.content));
        continue;
      }
      // The system prompt is long and the same on every run: folded.
      const details = element('details', 'system');
      details.append(
        element('summary', undefined, `System message (${formatCount(prompt.content.length)} characters)`),
      );
      details.append(textBlock('system message', prompt.content));
      body.append(details);
    }
    if (item.reasoning !== null && item.reasoning !== '') {
      const details = element('details', 'reasoning');
      details.append(
        element('summary', undefined, `Reasoning (${formatCount(item.reasoning.length)} characters)`),
      );
      details.append(textBlock('reasoning', item.reasoning));
      body.append(details);
    }
    body.append(textBlock('content', item.content ?? '(no content)'));
  }

  function buildToolBody(item: ToolItem, body: HTMLElement, facts: HTMLElement): void {
    fact(facts, 'call id', item.id);
    fact(facts, 'duration', formatMs(item.durationMs));
    fact(facts, 'started', `+${formatMs(item.startMs)}`);
    body.append(textBlock('arguments', pretty(item.arguments), 'arguments'));
    if (item.error !== null)
      body.append(textBlock(`error (${item.errorCode ?? 'error'})`, item.error, 'error'));
    if (item.content !== null)
      body.append(textBlock('result sent to the model', pretty(item.content), 'result'));
  }

  function buildEventBody(item: OtherItem, body: HTMLElement, facts: HTMLElement): void {
    fact(facts, 'type', item.type);
    fact(facts, 'at', `+${formatMs(item.atMs)}`);
    body.append(textBlock('data', JSON.stringify(item.data, null, 2) ?? 'null'));
  }

  function renderTurn(turn: TurnView, into: HTMLElement, maxMs: number, depth: number): TurnRecord {
    // Not <ol>/<li>: hiding many list items makes the browser renumber the list, quadratic in turns.
    const node = element('div', 'turn');
    node.dataset['turn'] = String(turn.turn);
    const head = element('div', 'turn-head');
    head.append(element('span', 'turn-label', `Turn ${turn.turn + 1}`));
    const bar = element('span', 'turn-bar');
    const modelBar = element('span', 'bar-model');
    modelBar.style.width = `${maxMs > 0 ? (turn.modelMs / maxMs) * 100 : 0}%`;
    const toolBar = element('span', 'bar-tools');
    toolBar.style.width = `${maxMs > 0 ? (turn.toolMs / maxMs) * 100 : 0}%`;
    bar.append(modelBar, toolBar);
    bar.title = `model ${formatMs(turn.modelMs)}, tools ${formatMs(turn.toolMs)}`;
    head.append(bar);
    const modelCalled = turn.items.some((item) => item.kind === 'model');
    const failed = turn.items.some((item) => item.kind === 'error');
    const times = [
      modelCalled ? `model ${formatMs(turn.modelMs)}` : failed ? 'model call failed' : 'no model call',
      ...(turn.toolMs > 0 ? [`tools ${formatMs(turn.toolMs)}`] : []),
      `at +${formatMs(turn.startMs)}`,
    ];
    head.append(element('span', 'turn-times', times.join(' · ')));
    node.append(head);
    const list = element('div', 'items');
    node.append(list);
    const record: TurnRecord = { element: node, items: [] };
    for (const item of turn.items) record.items.push(renderItem(item, list, depth));
    into.append(node);
    return record;
  }

  function renderRun(run: RunView, into: HTMLElement, depth: number, now: boolean): RunRecord {
    const section = element('section', depth === 0 ? 'run' : 'run subrun');
    section.dataset['runId'] = run.runId;
    const head = element('header', 'run-head');
    const toggle = element('button', 'run-toggle', '▾');
    toggle.setAttribute('aria-expanded', 'true');
    toggle.setAttribute('aria-label', 'Collapse this run');
    head.append(toggle);
    head.append(element('span', 'run-kind', depth === 0 && !run.parentMissing ? 'run' : 'subagent'));
    head.append(element('span', 'run-label', run.label));
    const meta = [
      `${formatCount(run.turnCount)} ${run.turnCount === 1 ? 'turn' : 'turns'}`,
      formatMs(run.durationMs),
      run.stopReason ?? 'no run_end',
      `${formatCount(run.inputTokens)} → ${formatCount(run.outputTokens)} tokens`,
    ];
    if (run.parentMissing) meta.push(`parent ${run.parentRunId ?? ''} not in this trace`);
    head.append(element('span', 'run-meta', meta.join(' · ')));
    if (run.stopReason === 'error') section.classList.add('failed');
    section.append(head);
    const turns = element('div', 'turns');
    section.append(turns);
    into.append(section);
    toggle.addEventListener('click', () => {
      const open = turns.hidden;
      turns.hidden = !open;
      toggle.textContent = open ? '▾' : '▸';
      toggle.setAttribute('aria-expanded', String(open));
      toggle.setAttribute('aria-label', open ? 'Collapse this run' : 'Expand this run');
    });
    const record: RunRecord = { element: section, turns: [], detached: [] };
    const maxMs = run.turns.reduce((max, turn) => Math.max(max, turn.modelMs + turn.toolMs), 0);
    const renderOne = (turn: TurnView): void => {
      const turnRecord = renderTurn(turn, turns, maxMs, depth);
      record.turns.push(turnRecord);
      if (filterActive()) applyTurn(turnRecord);
    };
    const renderDetached = (): void => {
      if (run.detached.length === 0) return;
      const block = element('div', 'detached');
      block.append(element('h3', undefined, 'Subagent runs not matched to a tool call'));
      section.append(block);
      for (const child of run.detached) record.detached.push(renderRun(child, block, depth + 1, true));
    };
    if (now) {
      for (const turn of run.turns) renderOne(turn);
      renderDetached();
    } else {
      for (const turn of run.turns) tasks.push(() => renderOne(turn));
      tasks.push(renderDetached);
    }
    return record;
  }

  function haystackOf(item: ItemView): string {
    switch (item.kind) {
      case 'tool':
        return `${item.name}\n${item.arguments}\n${item.content ?? ''}\n${item.error ?? ''}`.toLowerCase();
      case 'model':
        return `${item.model ?? ''}\n${item.content ?? ''}\n${item.reasoning ?? ''}\n${item.toolCallNames.join(' ')}\n${item.prompts.map((prompt) => prompt.content).join('\n')}`.toLowerCase();
      case 'event':
        return `${item.type}\n${JSON.stringify(item.data)}`.toLowerCase();
      default:
        return `${(item as NoticeItem).code ?? ''}\n${(item as NoticeItem).name ?? ''}\n${(item as NoticeItem).message}`.toLowerCase();
    }
  }

  function filterActive(): boolean {
    return filterText.length > 0 || filterTools.length > 0;
  }

  function itemMatches(record: ItemRecord): boolean {
    const item = record.item;
    if (filterTools.length > 0 && !(item.kind === 'tool' && filterTools.includes(item.name.toLowerCase())))
      return false;
    if (filterText.length === 0) return true;
    record.haystack ??= haystackOf(item);
    const haystack = record.haystack;
    return filterText.every((term) => haystack.includes(term));
  }

  let matchCount = 0;

  /** Shows the items that match and what contains them; returns whether anything in the turn shows. */
  function applyTurn(turn: TurnRecord): boolean {
    let any = false;
    for (const record of turn.items) {
      let childShown = false;
      for (const run of record.runs) if (applyRun(run)) childShown = true;
      const matched = itemMatches(record);
      if (matched && filterActive()) matchCount++;
      const shown = matched || childShown;
      record.element.classList.toggle('filtered-out', !shown);
      record.element.classList.toggle('context', shown && !matched);
      if (shown) any = true;
    }
    turn.element.classList.toggle('filtered-out', !any);
    return any;
  }

  function applyRun(run: RunRecord): boolean {
    let any = false;
    for (const turn of run.turns) if (applyTurn(turn)) any = true;
    for (const child of run.detached) if (applyRun(child)) any = true;
    run.element.classList.toggle('filtered-out', !any && filterActive());
    return any || !filterActive();
  }

  function applyFilter(query: string, count: HTMLElement): void {
    const started = performance.now();
    // What the page shows now, for scripts (and tests) that wait on it.
    input.dataset['applied'] = query;
    filterText = [];
    filterTools = [];
    for (const term of query.toLowerCase().split(/\s+/)) {
      if (term === '') continue;
      if (term.startsWith('tool:') && term.length > 5) filterTools.push(...term.slice(5).split(','));
      else filterText.push(term);
    }
    matchCount = 0;
    for (const run of rootRuns) applyRun(run);
    count.textContent = filterActive()
      ? `${formatCount(matchCount)} of ${formatCount(records.length)} items match`
      : `${formatCount(records.length)} items`;
    if (selected >= 0 && !visible(records[selected]!)) select(-1);
    performance.measure('trace-viewer:filter', { start: started });
  }

  function visible(record: ItemRecord): boolean {
    if (record.element.classList.contains('filtered-out')) return false;
    const node = record.element as HTMLElement & { checkVisibility?: () => boolean };
    return typeof node.checkVisibility === 'function' ? node.checkVisibility() : node.offsetParent !== null;
  }

  function select(index: number): void {
    if (selected >= 0) records[selected]?.element.classList.remove('selected');
    selected = index;
    const record = records[index];
    if (record === undefined) return;
    record.element.classList.add('selected');
    record.element.focus({ preventScroll: true });
    record.head.scrollIntoView({ block: 'nearest' });
  }

  function move(step: number, where?: (record: ItemRecord) => boolean): void {
    for (let index = selected + step; index >= 0 && index < records.length; index += step) {
      const record = records[index]!;
      if (visible(record) && (where === undefined || where(record))) {
        select(index);
        return;
      }
    }
  }

  function toggle(record: ItemRecord, open?: boolean): void {
    if (!record.expandable) return;
    const show = open ?? (record.body === undefined || record.body.hidden);
    if (!show && record.body === undefined) return;
    const body = buildBody(record);
    body.hidden = !show;
    record.element.classList.toggle('open', show);
    record.head.setAttribute('aria-expanded', String(show));
  }

  function isProblem(record: ItemRecord): boolean {
    const item = record.item;
    return item.kind === 'warning' || item.kind === 'error' || (item.kind === 'tool' && item.error !== null);
  }

  const input = renderHeader();
  const count = app.querySelector('.filter-count') as HTMLElement;
  const main = element('main', 'runs');
  app.append(main);
  if (model.runs.length === 0) main.append(element('p', 'empty', 'This trace holds no runs.'));
  for (const run of model.runs) rootRuns.push(renderRun(run, main, 0, false));

  let pending: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    if (pending !== undefined) clearTimeout(pending);
    pending = setTimeout(() => applyFilter(input.value, count), records.length > 5000 ? 150 : 30);
  });

  main.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    if (target.closest('button, summary, pre, a') !== null) return;
    const head = target.closest('.item-head');
    if (head === null) return;
    const index = records.findIndex((record) => record.head === head);
    if (index < 0) return;
    select(index);
    toggle(records[index]!);
  });

  document.addEventListener('keydown', (event) => {
    if (event.target === input) {
      if (event.key === 'Escape') {
        input.value = '';
        applyFilter('', count);
        input.blur();
        event.preventDefault();
      } else if (event.key === 'Enter' || event.key === 'ArrowDown') {
        input.blur();
        selected = -1;
        move(1);
        event.preventDefault();
      }
      return;
    }
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    const current = records[selected];
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        move(1);
        break;
      case 'k':
      case 'ArrowUp':
        move(-1);
        break;
      case 'Enter':
      case ' ':
      case 'o':
        if (current === undefined) return;
        toggle(current);
        break;
      case 'Escape':
        if (current === undefined) return;
        toggle(current, false);
        break;
      case 'n':
        move(1, isProblem);
        break;
      case 'p':
        move(-1, isProblem);
        break;
      case '/':
        input.focus();
        break;
      default:
        return;
    }
    event.preventDefault();
  });

  // Long traces render in slices, yielding through a message channel (timers are clamped to
  // 4 ms when nested), so the page paints at once and answers keys while the rest comes.
  const channel = new MessageChannel();
  channel.port1.onmessage = () => pump();
  function pump(): void {
    const deadline = performance.now() + 25;
    while (nextTask < tasks.length && performance.now() < deadline) tasks[nextTask++]!();
    if (performance.getEntriesByName('trace-viewer:first-slice').length === 0)
      performance.mark('trace-viewer:first-slice');
    if (nextTask < tasks.length) {
      channel.port2.postMessage(null);
      return;
    }
    channel.port1.close();
    applyFilter(input.value, count);
    document.body.dataset['ready'] = 'true';
    performance.mark('trace-viewer:ready');
  }
  pump();
}
