import { beforeAll, describe, expect, it } from 'vitest';
import type { EvalReport } from '../../src/evals.js';
import { renderEvalHtml } from '../../src/evals.js';
import { evaluateMixed, hostileAnswer, hostileId } from '../support/mixed-eval-report.js';

let report: EvalReport;
let html: string;

beforeAll(async () => {
  report = await evaluateMixed();
  html = renderEvalHtml(report, { traceLink: (result, index) => `traces/${index}-${result.id}.html` });
});

/** The text of the first element carrying `attribute="value"`, tags stripped. */
function textOf(attribute: string, value: string, within = html): string {
  const start = within.indexOf(`${attribute}="${value}"`);
  expect(start, `${attribute}="${value}"`).toBeGreaterThan(-1);
  const open = within.indexOf('>', start) + 1;
  return within.slice(open, within.indexOf('</', open)).replace(/<[^>]*>/g, '');
}

/** The HTML of the case's table row. */
function rowOf(caseId: string): string {
  const start = html.indexOf(`<tr class="case`, html.indexOf(`data-case="${caseId}"`) - 40);
  return html.slice(start, html.indexOf('</tr>', start));
}

describe('renderEvalHtml', () => {
  it('is the report the fixture says it is (so the checks below mean something)', () => {
    expect(report.summary).toMatchObject({ cases: 4, passed: 1, completed: 3, errored: 1 });
    expect(report.summary.passRate).toBe(0.25);
    expect(report.summary.usage.totalTokens).toBe(50);
  });

  it('shows the summary numbers', () => {
    expect(textOf('data-summary', 'cases')).toBe('4');
    expect(textOf('data-summary', 'passed')).toBe('1 / 4');
    expect(textOf('data-summary', 'pass-rate')).toBe('25.0%');
    expect(textOf('data-summary', 'mean-score')).toBe(report.summary.meanScore.toFixed(3));
    expect(textOf('data-summary', 'errored')).toBe('1');
    expect(textOf('data-summary', 'tokens')).toBe('50');
    expect(textOf('data-summary', 'cost')).toBe(`$${report.summary.costUsd!.toFixed(6)}`);
    expect(html).toContain('<title>Evaluation: capitals</title>');
    expect(renderEvalHtml(report, { title: 'Nightly' })).toContain('<title>Nightly</title>');
  });

  it("shows each scorer's mean and pass counts", () => {
    const answer = html.slice(html.indexOf('<tr data-scorer="answer_equals">'));
    expect(textOf('data-field', 'mean', answer)).toBe('0.250');
    expect(textOf('data-field', 'passed', answer)).toBe('1');
    expect(textOf('data-field', 'failed', answer)).toBe('3');
    const tool = html.slice(html.indexOf('<tr data-scorer="tool_was_called:lookup">'));
    expect(textOf('data-field', 'mean', tool)).toBe('0.500');
    expect(textOf('data-field', 'passed', tool)).toBe('2');
  });

  it('lists failing cases first, with status, error, scores and reasons, and links their traces', () => {
    const order = [...html.matchAll(/<tr class="case (\w[\w-]*)" data-case="([^"]*)"/g)].map((match) => [
      match[1],
      match[2],
    ]);
    expect(order).toEqual([
      ['failed', 'Peru'],
      ['failed', '&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;'],
      ['failed', 'Mars'],
      ['passed', 'France'],
    ]);
    const peru = rowOf('Peru');
    expect(peru).toContain('<span class="status-completed">completed</span>');
    expect(peru).toContain('title="expected &quot;Lima&quot;, got &quot;Cusco&quot;"');
    expect(peru).toMatch(/class="score-failed" data-scorer="answer_equals"[^>]*><span class="score">0.000</);
    expect(peru).toMatch(
      /class="score-passed" data-scorer="tool_was_called:lookup"[^>]*><span class="score">1.000</,
    );
    expect(peru).toContain('<a class="trace-link" href="traces/1-Peru.html">trace</a>');
    const mars = rowOf('Mars');
    expect(mars).toContain('<span class="status-errored">errored</span>');
    expect(mars).toContain('Error: no capital known for Mars &lt;b&gt;at all&lt;/b&gt;');
  });

  it('escapes every value from the report: a hostile case id, answer and link make no markup', () => {
    expect(hostileAnswer).toContain('<img');
    expect(html).not.toContain(hostileId);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('onerror="');
    expect(html).toContain('&lt;img src=x onerror=');
    expect(html.match(/<script/g)).toBeNull();
    const linked = renderEvalHtml(report, { traceLink: () => '"><script>x</script>' });
    expect(linked).toContain('href="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(linked.match(/<script/g)).toBeNull();
  });

  it('allows no script and no fetch in its Content-Security-Policy', () => {
    const policy = /http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)?.[1];
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'none'");
  });
});
