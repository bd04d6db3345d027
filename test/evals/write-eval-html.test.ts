import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/evals.js';
import { writeEvalHtml } from '../../src/evals.js';
import { launchChromium } from '../support/chromium.js';
import { evaluateMixed, hostileId } from '../support/mixed-eval-report.js';

let browser: Browser | undefined;
let skipReason = '';
let directory: string;
let report: EvalReport;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'eval-html-'));
  report = await evaluateMixed();
  const launched = await launchChromium();
  if ('skip' in launched) skipReason = launched.skip;
  else browser = launched.browser;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await rm(directory, { recursive: true, force: true });
});

describe('writeEvalHtml', () => {
  it('writes the page and, beside it, a trace page per case with traces, named safely', async () => {
    const written = await writeEvalHtml(report, join(directory, 'files', 'nightly.html'));
    expect(written.path).toBe(join(directory, 'files', 'nightly.html'));
    expect(written.tracesDirectory).toBe(join(directory, 'files', 'nightly-traces'));
    // Mars errored before its agent ran: no traces, no page.
    expect(written.tracePages.map((page) => page.caseId)).toEqual(['France', 'Peru', hostileId]);
    expect((await readdir(written.tracesDirectory!)).sort()).toEqual([
      'France.html',
      'Peru.html',
      '_script_document_title__pwned___script_.html',
    ]);
  });
});

describe('the HTML evaluation report in Chromium', () => {
  it("shows the report's numbers and opens a failing case's trace", async (context) => {
    if (browser === undefined) return context.skip(skipReason);
    const { path } = await writeEvalHtml(report, join(directory, 'browser', 'report.html'));
    const page = await (await browser.newContext()).newPage();
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
    try {
      await page.goto(pathToFileURL(path).href, { timeout: 15_000 });
      const { summary } = report;
      expect(await page.locator('[data-summary="passed"]').textContent()).toBe(
        `${summary.passed} / ${summary.cases}`,
      );
      expect(await page.locator('[data-summary="pass-rate"]').textContent()).toBe(
        `${(summary.passRate * 100).toFixed(1)}%`,
      );
      const answerScorer = summary.scorers.find((scorer) => scorer.name === 'answer_equals')!;
      expect(answerScorer.mean).toBe(0.25);
      expect(await page.locator('tr[data-scorer="answer_equals"] [data-field="mean"]').textContent()).toBe(
        answerScorer.mean.toFixed(3),
      );
      // The hostile case id shows as text, and ran nothing.
      expect(await page.locator(`tr.case.failed >> nth=1`).locator('.case-id').textContent()).toBe(hostileId);
      expect(await page.title()).toBe('Evaluation: capitals');

      const peru = page.locator('tr.case[data-case="Peru"]');
      expect(await peru.getAttribute('class')).toContain('failed');
      expect(await peru.locator('[data-scorer="answer_equals"] .reason').textContent()).toBe(
        'expected "Lima", got "Cusco"',
      );
      await peru.locator('a.trace-link').click();
      await page.waitForURL(/report-traces\/Peru\.html$/, { timeout: 15_000 });
      await page.waitForFunction(() => document.body.dataset['ready'] === 'true', null, { timeout: 15_000 });
      expect(await page.title()).toBe('Case Peru');
      expect(await page.locator('.item-tool .name').allTextContents()).toEqual(['lookup']);
      expect(await page.locator('main').textContent()).toContain('Cusco');
      expect(problems).toEqual([]);
      expect(requests.every((url) => url.startsWith('file://'))).toBe(true);
    } finally {
      await page.context().close();
    }
  }, 60_000);
});
