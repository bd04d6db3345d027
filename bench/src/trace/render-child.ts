/**
 * The viewer on 20,000 events, in a fresh process: records a 6,667-turn run to a JSONL file, reads
 * it back, times `renderTraceHtml`, and (when Debian's Chromium is installed) loads the page and
 * filters it. Prints one JSON line (a `RenderChildResult`) on stdout.
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import type { ModelAdapter, ModelResponse } from 'tool-orchestrator';
import { createJsonlSink, readJsonl, renderTraceHtml } from 'tool-orchestrator/trace';
import { z } from 'zod';
import { prepareOurs } from '../loop/libraries/ours.js';
import { Script, buildScenario } from '../loop/scenarios.js';
import { median } from '../measure.js';

export interface RenderChildOptions {
  readonly toolTurns: number;
  readonly renders: number;
  readonly pageLoads: number;
  readonly chromiumPath: string;
}

export interface RenderChildResult {
  /** One S3 run (200 turns of a 2 KB result) written by createJsonlSink, compact and verbatim. */
  readonly s3FileBytes: { readonly compact: number; readonly verbatim: number };
  readonly events: number;
  readonly jsonlBytes: number;
  readonly readMs: number;
  /** Median over `renders`. */
  readonly renderMs: number;
  readonly htmlBytes: number;
  /** Present when Chromium ran: medians over `pageLoads`, in ms from navigation start. */
  readonly browser?: {
    readonly firstSliceMs: number;
    readonly readyMs: number;
    /** The filter's own work (no debounce), and from typing to the next painted frame. */
    readonly filterMs: number;
    readonly filterToPaintMs: number;
    readonly elements: number;
  };
  readonly browserSkipped?: string;
}

async function recordTrace(path: string, toolTurns: number): Promise<void> {
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
      const response: ModelResponse =
        turn === toolTurns
          ? { content: 'done', finish_reason: 'stop' }
          : {
              content: null,
              finish_reason: 'tool_calls',
              tool_calls: [
                {
                  id: `call_${turn}`,
                  type: 'function',
                  function: {
                    name: turn === 5000 ? 'note' : 'page',
                    arguments: JSON.stringify({ page: turn }),
                  },
                },
              ],
              usage: {
                promptTokens: 10,
                completionTokens: 2,
                totalTokens: 12,
                reasoningTokens: 0,
                cachedPromptTokens: 0,
              },
            };
      return Promise.resolve(response);
    },
  };
  const sink = createJsonlSink(path);
  await new ToolOrchestrator(
    adapter,
    { page, note },
    {
      maxTurns: toolTurns + 1,
      collectTraces: false,
      traceEmitter: sink,
    },
  ).run([{ role: 'user', content: 'Read every page.' }]);
  await sink.close();
}

/** The JSONL file of one S3 run, as the sink writes it and as written verbatim. */
async function s3FileBytes(directory: string): Promise<RenderChildResult['s3FileBytes']> {
  const sizes: Record<'compact' | 'verbatim', number> = { compact: 0, verbatim: 0 };
  for (const kind of ['compact', 'verbatim'] as const) {
    const path = join(directory, `s3-${kind}.jsonl`);
    const sink = createJsonlSink(path, { verbatim: kind === 'verbatim' });
    const script = new Script(buildScenario('S3-200'));
    const run = await prepareOurs(script, { via: 'run', options: { traceEmitter: sink } });
    if ((await run()) !== script.scenario.finalText) throw new Error('S3 did not reach its final text');
    await sink.close();
    sizes[kind] = statSync(path).size;
  }
  return sizes;
}

async function measureBrowser(
  htmlPath: string,
  options: RenderChildOptions,
): Promise<NonNullable<RenderChildResult['browser']>> {
  const browser = await chromium.launch({
    executablePath: options.chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const loads: NonNullable<RenderChildResult['browser']>[] = [];
    for (let load = 0; load < options.pageLoads; load++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(pathToFileURL(htmlPath).href);
      await page.waitForFunction(() => document.body.dataset['ready'] === 'true', null, { timeout: 120_000 });
      const marks = await page.evaluate(() => ({
        firstSliceMs: performance.getEntriesByName('trace-viewer:first-slice')[0]?.startTime ?? Number.NaN,
        readyMs: performance.getEntriesByName('trace-viewer:ready')[0]?.startTime ?? Number.NaN,
        elements: document.getElementsByTagName('*').length,
      }));
      const filterToPaintMs = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const input = document.getElementById('filter') as HTMLInputElement;
            const started = performance.now();
            input.value = 'tool:note';
            input.dispatchEvent(new Event('input'));
            const check = (): void => {
              if (input.dataset['applied'] === 'tool:note') {
                requestAnimationFrame(() =>
                  requestAnimationFrame(() => resolve(performance.now() - started)),
                );
              } else setTimeout(check, 1);
            };
            check();
          }),
      );
      const filterMs = await page.evaluate(
        () => performance.getEntriesByName('trace-viewer:filter').at(-1)?.duration ?? Number.NaN,
      );
      loads.push({ ...marks, filterMs, filterToPaintMs });
      await page.close();
    }
    const pick = (key: keyof NonNullable<RenderChildResult['browser']>) =>
      median(loads.map((load) => load[key]));
    return {
      firstSliceMs: pick('firstSliceMs'),
      readyMs: pick('readyMs'),
      filterMs: pick('filterMs'),
      filterToPaintMs: pick('filterToPaintMs'),
      elements: pick('elements'),
    };
  } finally {
    await browser.close();
  }
}

async function measure(options: RenderChildOptions): Promise<RenderChildResult> {
  const directory = mkdtempSync(join(tmpdir(), 'bench-render-'));
  try {
    const jsonlPath = join(directory, 'run.jsonl');
    await recordTrace(jsonlPath, options.toolTurns);
    const readStarted = performance.now();
    const events = await readJsonl(jsonlPath);
    const readMs = performance.now() - readStarted;
    let html = '';
    const durations: number[] = [];
    for (let index = 0; index < options.renders + 1; index++) {
      const started = performance.now();
      html = renderTraceHtml(events);
      // The first render warms up.
      if (index > 0) durations.push(performance.now() - started);
    }
    const htmlPath = join(directory, 'run.html');
    writeFileSync(htmlPath, html);
    const base = {
      s3FileBytes: await s3FileBytes(directory),
      events: events.length,
      jsonlBytes: statSync(jsonlPath).size,
      readMs,
      renderMs: median(durations),
      htmlBytes: Buffer.byteLength(html),
    };
    if (!existsSync(options.chromiumPath)) {
      return { ...base, browserSkipped: `${options.chromiumPath} not found (apt-get install chromium)` };
    }
    return { ...base, browser: await measureBrowser(htmlPath, options) };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

const options = JSON.parse(process.argv[2] ?? '{}') as RenderChildOptions;
measure(options).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    process.exitCode = 1;
  },
);
