import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOrchestrator } from '../../src/orchestrator/tool-orchestrator.js';
import { ScriptedAdapter } from '../../src/testing/scripted-adapter.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { ModelAdapter } from '../../src/model/model-adapter.js';
import type { TraceEvent } from '../../src/tracing/trace-events.js';
import { createJsonlSink, readJsonl, renderTraceHtml } from '../../src/trace.js';
import { launchChromium } from '../support/chromium.js';
import { runBuiltCli } from '../support/built-cli.js';
import { recordExploration } from '../support/recorded-exploration.js';
import { imagePayload, runTracedScenario, scriptPayload } from '../support/traced-scenario.js';

/** Test artifacts (not committed); `UPDATE_DOCS_SCREENSHOT=1` also refreshes the one docs/traces.md shows. */
const artifacts = fileURLToPath(new URL('../artifacts/', import.meta.url));
const docsScreenshot = fileURLToPath(new URL('../../docs/images/trace-viewer.png', import.meta.url));

let browser: Browser | undefined;
let skipReason = '';
let directory: string;
let scenario: TraceEvent[];
let opened = 0;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'trace-viewer-'));
  const launched = await launchChromium();
  if ('skip' in launched) skipReason = launched.skip;
  else browser = launched.browser;
  const events = await runTracedScenario();
  // An event type of a newer loop: the viewer shows it generically.
  const last = events.find((event) => event.type === 'tool_result')!;
  scenario = [
    ...events,
    {
      type: 'context_compacted',
      runId: last.runId,
      turn: last.turn,
      seq: 999,
      timestamp: last.timestamp,
      data: { removedMessages: 12 },
    } as unknown as TraceEvent,
  ];
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(directory, { recursive: true, force: true });
});

interface OpenPage {
  readonly page: Page;
  /** Page errors, console errors and dialogs. */
  readonly problems: string[];
  /** Every URL the page requested. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Writes the page to a file and opens it as a person would, from disk; waits until it has rendered. */
async function open(html: string): Promise<OpenPage> {
  const path = join(directory, `trace-${opened++}.html`);
  await writeFile(path, html);
  return openFile(path);
}

async function openFile(path: string): Promise<OpenPage> {
  const context = await browser!.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(path).href);
  // A cheap check: a selector wait would scan the whole (large) document on every poll.
  await page.waitForFunction(() => document.body.dataset['ready'] === 'true', null, { timeout: 30_000 });
  return { page, problems, requests, close: () => context.close() };
}

/** Types into the filter box as a person would, and waits until the page has applied it. */
async function filterBy(page: Page, query: string): Promise<void> {
  await page.locator('#filter').fill(query);
  await page.waitForFunction(
    (expected) => document.getElementById('filter')?.dataset['applied'] === expected,
    query,
  );
}

// Texts are read with textContent: turns use `content-visibility: auto`, so the browser skips
// rendering the ones off screen and their innerText reads empty until scrolled to.
const toolItem = (page: Page, text: string) => page.locator('.item-tool', { hasText: text }).first();

describe('the HTML trace viewer in Chromium', () => {
  it('shows each run, its turns, the totals and the subagent nested under its call', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const { page, problems, close } = await open(renderTraceHtml(scenario));
    try {
      expect(await page.locator('[data-total="runs"]').textContent()).toBe('3 runs');
      expect(await page.locator('[data-total="turns"]').textContent()).toBe('7 turns');
      expect(await page.locator('[data-total="tool-calls"]').textContent()).toBe('7 tool calls');
      expect(await page.locator('[data-total="tool-errors"]').textContent()).toBe('1 tool errors');
      expect(await page.locator('[data-total="errors"]').textContent()).toBe('1 errors');
      const roots = page.locator('main > section.run');
      expect(await roots.count()).toBe(2);
      const main = roots.nth(0);
      expect(await main.locator('> header .run-label').textContent()).toBe('How are requests sent in axios?');
      expect(await main.locator('> header .run-meta').textContent()).toMatch(/^3 turns · /);
      expect(await main.locator('> .turns > .turn').count()).toBe(3);
      expect(await main.locator('> .turns > .turn > .turn-head .turn-label').allTextContents()).toEqual([
        'Turn 1',
        'Turn 2',
        'Turn 3',
      ]);
      // The subagent hangs under the explore_codebase call, visible without expanding anything.
      const explore = toolItem(page, 'explore_codebase');
      const subagent = explore.locator('> .subruns > section.subrun');
      expect(await subagent.count()).toBe(1);
      expect(await subagent.isVisible()).toBe(true);
      expect(await subagent.locator('> header .run-label').textContent()).toBe(
        'Where are requests dispatched?',
      );
      expect(await subagent.locator('> header .run-kind').textContent()).toMatch(/subagent/i);
      expect(await subagent.locator('> .turns > .turn').count()).toBe(3);
      expect(await subagent.locator('.item-tool .name').allTextContents()).toEqual([
        'grep_repo',
        'read_file',
      ]);
      // Failures stand out; the run that failed says so.
      const broken = toolItem(page, 'broken');
      expect(await broken.getAttribute('class')).toContain('failed');
      expect(await broken.locator('.status').textContent()).toBe('tool_error');
      const failedRun = roots.nth(1);
      expect(await failedRun.getAttribute('class')).toContain('failed');
      expect(await failedRun.locator('.item-error').textContent()).toContain('rate_limit');
      expect(await failedRun.locator('.item-error').textContent()).toContain('Slow down.');
      expect(await failedRun.locator('.turn-times').last().textContent()).toContain('model call failed');
      // An event type this version does not know is shown, with its data.
      const unknown = page.locator('.item-event', { hasText: 'context_compacted' });
      expect(await unknown.isVisible()).toBe(true);
      await unknown.locator('.item-head').click();
      expect(await unknown.locator('.item-body').textContent()).toContain('"removedMessages": 12');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('expands a tool call to its arguments and result, and cuts a long result with a way to see all', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const big = defineTool({
      name: 'big',
      description: 'Returns a lot.',
      parameters: z.object({ size: z.number() }),
      execute: ({ size }) => `${'y'.repeat(size)}THE-END`,
    });
    const result = await new ToolOrchestrator(
      new ScriptedAdapter([ScriptedAdapter.toolCalls([['big', { size: 6000 }]]), ScriptedAdapter.text('ok')]),
      { big },
    ).run([{ role: 'user', content: 'Get the big one.' }]);
    const { page, problems, close } = await open(renderTraceHtml([...scenario, ...result.traces]));
    try {
      const alpha = toolItem(page, '"alpha"');
      const body = alpha.locator('> .item-body');
      expect(await body.isVisible()).toBe(false);
      await alpha.locator('> .item-head').click();
      expect(await body.isVisible()).toBe(true);
      expect(await alpha.locator('> .item-head').getAttribute('aria-expanded')).toBe('true');
      expect(await body.locator('.arguments pre').textContent()).toBe('{\n  "query": "alpha"\n}');
      expect(await body.locator('.result pre').textContent()).toContain('Found alpha');
      expect(await body.textContent()).toContain('call_lookup_alpha');
      await alpha.locator('> .item-head').click();
      expect(await body.isVisible()).toBe(false);

      const bigItem = toolItem(page, '"size":6000');
      await bigItem.locator('> .item-head').click();
      const resultText = bigItem.locator('.result pre');
      expect((await resultText.textContent())?.length).toBeLessThan(2100);
      expect(await resultText.textContent()).not.toContain('THE-END');
      const showAll = bigItem.locator('.result button.show-all');
      expect(await showAll.textContent()).toBe('Show all (6,007 characters)');
      await showAll.click();
      expect(await resultText.textContent()).toContain('THE-END');
      expect(await showAll.count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('filters by tool name and by text, hiding the other calls', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const { page, problems, close } = await open(renderTraceHtml(scenario));
    try {
      const filter = page.locator('#filter');
      const visibleNames = () => page.locator('.item-tool:visible > .item-head .name').allTextContents();
      expect((await visibleNames()).sort()).toEqual([
        'broken',
        'explore_codebase',
        'grep_repo',
        'lookup',
        'lookup',
        'lookup',
        'read_file',
      ]);
      await filterBy(page, 'tool:lookup');
      expect(await visibleNames()).toEqual(['lookup', 'lookup', 'lookup']);
      expect(await page.locator('.item-model:visible').count()).toBe(0);
      expect(await page.locator('.filter-count').textContent()).toMatch(/^3 of \d+ items match$/);
      expect(await toolItem(page, 'broken').isVisible()).toBe(false);

      await filterBy(page, 'alpha');
      expect(await visibleNames()).toEqual(['lookup']);
      expect(await toolItem(page, '"alpha"').isVisible()).toBe(true);
      // The second run has nothing that matches: it is hidden.
      expect(await page.locator('main > section.run').nth(1).isVisible()).toBe(false);

      // A match inside the subagent keeps the call that spawned it in view, as context.
      await filterBy(page, 'tool:grep_repo');
      expect(await visibleNames()).toEqual(['explore_codebase', 'grep_repo']);
      expect(await toolItem(page, 'explore_codebase').getAttribute('class')).toContain('context');

      await filter.press('Escape');
      await page.waitForFunction(() => document.getElementById('filter')?.dataset['applied'] === '');
      expect(await filter.inputValue()).toBe('');
      expect(await visibleNames()).toHaveLength(7);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('moves through the calls with the keyboard', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const { page, problems, close } = await open(renderTraceHtml(scenario));
    try {
      const selected = page.locator('.item.selected');
      await page.keyboard.press('j');
      expect(await selected.locator('> .item-head .name').textContent()).toBe('main-model');
      await page.keyboard.press('j');
      expect(await selected.locator('> .item-head .preview').textContent()).toBe('{"query":"alpha"}');
      await page.keyboard.press('Enter');
      expect(await selected.locator('> .item-body').isVisible()).toBe(true);
      expect(await selected.locator('.arguments pre').textContent()).toContain('"alpha"');
      await page.keyboard.press('ArrowDown');
      expect(await selected.locator('> .item-head .preview').textContent()).toContain('window.__pwned=1');
      await page.keyboard.press('k');
      expect(await selected.locator('> .item-head .preview').textContent()).toBe('{"query":"alpha"}');
      // n: the next problem (the failing tool), then the failed model call.
      await page.keyboard.press('n');
      expect(await selected.locator('> .item-head .name').textContent()).toBe('broken');
      await page.keyboard.press('n');
      expect(await selected.textContent()).toContain('rate_limit');
      await page.keyboard.press('p');
      expect(await selected.locator('> .item-head .name').textContent()).toBe('broken');
      // "/" goes to the filter; Enter there jumps to the first visible match.
      await page.keyboard.press('/');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('filter');
      await page.keyboard.type('tool:broken');
      await page.waitForFunction(
        () => document.getElementById('filter')?.dataset['applied'] === 'tool:broken',
      );
      await page.keyboard.press('Enter');
      expect(await selected.locator('> .item-head .name').textContent()).toBe('broken');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('shows script and image payloads as text and never runs them', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const title = `Run ${imagePayload} ${scriptPayload}`;
    const html = renderTraceHtml(scenario, { title });
    // The data cannot close its script element: the page has exactly its two.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    const { page, problems, close } = await open(html);
    try {
      const item = toolItem(page, 'window.__pwned=1');
      await item.locator('> .item-head').click();
      expect(await item.locator('.arguments pre').textContent()).toBe(
        `{\n  "query": "${scriptPayload.replace(/"/g, '\\"')}"\n}`,
      );
      expect(await item.locator('.result pre').textContent()).toBe(`Found ${scriptPayload} ${imagePayload}`);
      expect(await page.locator('h1').textContent()).toBe(title);
      expect(await page.title()).toBe(title);
      const state = await page.evaluate(() => ({
        pwned: (window as unknown as { __pwned?: unknown }).__pwned,
        images: document.querySelectorAll('img').length,
        scripts: document.querySelectorAll('script').length,
      }));
      expect(state).toEqual({ pwned: undefined, images: 0, scripts: 2 });
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 60_000);

  it('loads nothing: its policy blocks fetches and images, and the page requests only itself', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    let hits = 0;
    const server = createServer((_request, response) => {
      hits++;
      response.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const { page, requests, close } = await open(renderTraceHtml(scenario));
    try {
      expect(requests).toHaveLength(1);
      expect(requests[0]).toMatch(/^file:/);
      const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("connect-src 'none'");
      const outcome = await page.evaluate(
        (target) =>
          fetch(target).then(
            () => 'loaded',
            () => 'blocked',
          ),
        url,
      );
      expect(outcome).toBe('blocked');
      await page.evaluate((target) => {
        const image = document.createElement('img');
        image.src = `${target}image.png`;
        document.body.append(image);
      }, url);
      await page.waitForTimeout(300);
      expect(hits).toBe(0);
    } finally {
      await close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('stays usable with 20,000 events', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    // A run of 6,667 turns, recorded to a file and read back, as `trace view` does.
    const turns = 6666;
    const page = defineTool({
      name: 'page',
      description: 'A page.',
      parameters: z.object({ page: z.number() }),
      execute: ({ page: number }) => `page ${number}`,
    });
    const note = defineTool({
      name: 'note',
      description: 'A note.',
      parameters: z.object({}),
      execute: () => 'noted',
    });
    let call = 0;
    const adapter: ModelAdapter = {
      call: () => {
        const turn = call++;
        return Promise.resolve(
          turn === turns
            ? { content: 'done', finish_reason: 'stop' }
            : {
                content: null,
                finish_reason: 'tool_calls',
                tool_calls: [
                  ScriptedAdapter.toolCall(turn === 5000 ? 'note' : 'page', { page: turn }, `call_${turn}`),
                ],
                usage: {
                  promptTokens: 10,
                  completionTokens: 2,
                  totalTokens: 12,
                  reasoningTokens: 0,
                  cachedPromptTokens: 0,
                },
              },
        );
      },
    };
    const path = join(directory, 'long.jsonl');
    const sink = createJsonlSink(path);
    await new ToolOrchestrator(
      adapter,
      { page, note },
      { maxTurns: turns + 1, collectTraces: false, traceEmitter: sink },
    ).run([{ role: 'user', content: 'Read every page.' }]);
    await sink.close();
    const events = await readJsonl(path);
    expect(events.length).toBeGreaterThanOrEqual(20_000);
    const opened = await open(renderTraceHtml(events));
    try {
      const view = opened.page;
      expect(await view.locator('[data-total="events"]').textContent()).toBe(
        `${events.length.toLocaleString('en-US')} events`,
      );
      expect(await view.locator('[data-total="turns"]').textContent()).toBe('6,667 turns');
      expect(await view.locator('.turn').count()).toBe(turns + 1);
      await filterBy(view, 'tool:note');
      expect(await view.locator('.filter-count').textContent()).toMatch(/^1 of 13,33\d items match$/);
      expect(await view.locator('.item-tool:visible').count()).toBe(1);
      await view.locator('#filter').press('Enter');
      expect(await view.locator('.item.selected > .item-head .name').textContent()).toBe('note');
      expect(await view.locator('.item.selected').isVisible()).toBe(true);
      expect(opened.problems).toEqual([]);
    } finally {
      await opened.close();
    }
  }, 120_000);

  it('opens what `explore --trace` recorded, rendered by `trace view`; saves a screenshot', async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const tracePath = join(directory, 'explore.jsonl');
    const htmlPath = join(directory, 'explore.html');
    const recorded = await recordExploration(tracePath);
    expect(recorded.code, recorded.stderr).toBe(0);
    const rendered = await runBuiltCli(['trace', 'view', tracePath, '-o', htmlPath]);
    expect(rendered.code, rendered.stderr).toBe(0);
    const { page, problems, close } = await openFile(htmlPath);
    try {
      expect(await page.locator('h1').textContent()).toBe(
        'Trace: How does the orchestrator run tool calls in parallel?',
      );
      expect(await page.locator('[data-total="turns"]').textContent()).toBe('3 turns');
      expect(await page.locator('.item-tool .name').allTextContents()).toEqual([
        'grep_repo',
        'grep_repo',
        'read_file',
      ]);
      expect(await page.locator('[data-total="tokens"]').textContent()).toBe(
        '10,200 in / 520 out tokens (220 reasoning) (5,376 cached)',
      );
      const firstModel = page.locator('.item-model').first();
      await firstModel.locator('> .item-head').click();
      expect(await firstModel.locator('details.system pre').isVisible()).toBe(false);
      expect(await firstModel.locator('.block', { hasText: 'user message' }).textContent()).toContain(
        'How does the orchestrator run tool calls in parallel?',
      );
      await firstModel.locator('details.reasoning > summary').click();
      expect(await firstModel.locator('details.reasoning pre').textContent()).toContain(
        'Find where toolConcurrency',
      );
      await firstModel.locator('> .item-head').click();
      const read = toolItem(page, 'read_file');
      await read.locator('> .item-head').click();
      expect(await read.locator('.result pre').textContent()).toContain('executeToolCalls');
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, 'trace-viewer.png') });
      if (process.env['UPDATE_DOCS_SCREENSHOT'] === '1') {
        await copyFile(join(artifacts, 'trace-viewer.png'), docsScreenshot);
      }
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  }, 90_000);
});
