import { formatBytes, formatNumber, markdownTable } from '../format.js';
import { median } from '../measure.js';
import { runChild } from '../run-child.js';
import type { RenderChildOptions, RenderChildResult } from './render-child.js';
import type { SinkChildOptions, SinkChildResult, SinkVariant } from './sink-child.js';

export interface TraceSuiteOptions {
  readonly rounds: number;
  readonly sink: Omit<SinkChildOptions, 'variant'>;
  readonly render: RenderChildOptions;
  readonly log: (line: string) => void;
}

const variants: readonly SinkVariant[] = ['none', 'otel', 'otel-bare', 'jsonl', 'jsonl-discard'];
const labels: Record<SinkVariant, string> = {
  none: 'no sink',
  otel: 'OTel sink (in-memory exporter)',
  'otel-bare': 'bare OTel SDK spans, same exporter (the floor)',
  jsonl: 'JSONL sink (file)',
  'jsonl-discard': 'JSONL sink into a stream that drops the bytes (no disk)',
};
const target = 1.3;

/**
 * S3 with each trace sink against no sink, a fresh process per sink and round, rotating the order
 * each round; then the viewer on 20,000 events.
 */
export async function runTraceSuite(options: TraceSuiteOptions): Promise<{ markdown: string }> {
  const rounds: SinkChildResult[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const order = variants.map((_, index) => variants[(index + round) % variants.length]!);
    const results: SinkChildResult[] = [];
    for (const variant of order) {
      const result = await runChild<SinkChildResult>('sink-child', { ...options.sink, variant }).catch(
        (error: unknown): SinkChildResult => ({ variant, ok: false, failure: (error as Error).message }),
      );
      options.log(
        `  round ${round + 1}/${options.rounds} S3 ${labels[variant]}: ${
          result.ok
            ? `${formatNumber(result.microsecondsPerTurn, 1)} µs/turn (${result.timedRuns} runs)`
            : `FAILED ${result.failure}`
        }`,
      );
      results.push(result);
    }
    rounds.push(results);
  }
  const of = (variant: SinkVariant, round: SinkChildResult[]) =>
    round.find((result) => result.variant === variant);
  const failures = rounds.flat().filter((result) => !result.ok);
  const medianOf = (variant: SinkVariant, pick: (result: SinkChildResult) => number | undefined) => {
    const values = rounds
      .map((round) => of(variant, round))
      .map((result) => (result?.ok ? pick(result) : undefined))
      .filter((value): value is number => value !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  /** The ratio to no sink within each round (same load), then the median over rounds. */
  const ratio = (variant: SinkVariant, pick: (result: SinkChildResult) => number | undefined) => {
    const values = rounds
      .map((round) => {
        const mine = of(variant, round);
        const none = of('none', round);
        const a = mine?.ok ? pick(mine) : undefined;
        const b = none?.ok ? pick(none) : undefined;
        return a === undefined || b === undefined || b === 0 ? undefined : a / b;
      })
      .filter((value): value is number => value !== undefined);
    return values.length === 0
      ? undefined
      : { median: median(values), min: Math.min(...values), max: Math.max(...values) };
  };
  const times = (value: { median: number; min: number; max: number } | undefined) =>
    value === undefined
      ? 'n/a'
      : `${value.median.toFixed(2)}x (${value.min.toFixed(2)}-${value.max.toFixed(2)})`;
  const sinkTable = markdownTable(
    [
      'S3: 200 turns, one 2 KB result each',
      'µs/turn',
      'ratio to no sink',
      'allocated/run',
      'allocation ratio',
      'output/run',
    ],
    variants.map((variant) => {
      const time = (result: SinkChildResult) => result.microsecondsPerTurn;
      const allocation = (result: SinkChildResult) => result.bytesAllocatedPerRun;
      const output = medianOf(variant, (result) => result.outputPerRun);
      return [
        labels[variant],
        formatNumber(medianOf(variant, time), 1),
        variant === 'none' ? '1.00x' : times(ratio(variant, time)),
        formatBytes(medianOf(variant, allocation)),
        variant === 'none' ? '1.00x' : times(ratio(variant, allocation)),
        variant.startsWith('otel')
          ? `${formatNumber(output, 0)} spans`
          : variant.startsWith('jsonl')
            ? formatBytes(output)
            : '',
      ];
    }),
  );
  const targets = (['otel', 'jsonl'] as const).map((variant) => {
    const value = ratio(variant, (result) => result.microsecondsPerTurn);
    const met = value === undefined ? 'n/a' : value.median <= target ? 'met' : 'MISSED';
    return `- ${labels[variant]} at most ${target}x of no sink on S3: ${times(value)}: ${met}`;
  });
  // What the sink's own logic adds over creating the same spans bare, within each round.
  const overFloor = rounds
    .map((round) => {
      const sink = of('otel', round);
      const bare = of('otel-bare', round);
      return sink?.ok && bare?.ok ? sink.microsecondsPerTurn! / bare.microsecondsPerTurn! : undefined;
    })
    .filter((value): value is number => value !== undefined);
  targets.push(
    `- OTel sink over the bare SDK spans (what the sink itself adds): ${overFloor.length === 0 ? 'n/a' : `${median(overFloor).toFixed(2)}x (${Math.min(...overFloor).toFixed(2)}-${Math.max(...overFloor).toFixed(2)})`}`,
  );

  options.log('  viewer: recording, reading and rendering 20,000 events');
  const render = await runChild<RenderChildResult>('render-child', options.render, { timeoutMs: 600_000 });
  const ms = (value: number | undefined) => `${formatNumber(value, 0)} ms`;
  const sizes = markdownTable(
    ['one S3 run written by createJsonlSink', 'bytes'],
    [
      ['compact (the default)', formatBytes(render.s3FileBytes.compact)],
      ['verbatim: true (every llm_call with its whole transcript)', formatBytes(render.s3FileBytes.verbatim)],
    ],
  );
  const renderRows: string[][] = [
    ['events', formatNumber(render.events, 0)],
    ['JSONL file', formatBytes(render.jsonlBytes)],
    ['readJsonl', ms(render.readMs)],
    [`renderTraceHtml (median of ${options.render.renders})`, ms(render.renderMs)],
    ['HTML file', formatBytes(render.htmlBytes)],
  ];
  if (render.browser !== undefined) {
    renderRows.push(
      [
        `Chromium: first slice painted (median of ${options.render.pageLoads} loads)`,
        ms(render.browser.firstSliceMs),
      ],
      ['Chromium: every turn rendered', ms(render.browser.readyMs)],
      ['Chromium: DOM elements', formatNumber(render.browser.elements, 0)],
      ['Chromium: filter `tool:note`, its own work', ms(render.browser.filterMs)],
      ['Chromium: filter, typing to painted (150 ms debounce included)', ms(render.browser.filterToPaintMs)],
    );
  }
  return {
    markdown: [
      '### Trace sinks on S3 (medians over rounds; ratios within each round, then the median, with the range)',
      '',
      sinkTable,
      '',
      '### Targets',
      '',
      ...targets,
      '',
      sizes,
      ...(failures.length === 0
        ? []
        : ['', ...failures.map((failure) => `- FAILED ${failure.variant}: ${failure.failure}`)]),
      '',
      `### The viewer on ${formatNumber(render.events, 0)} events (one run of ${formatNumber(options.render.toolTurns + 1, 0)} turns)`,
      '',
      markdownTable(['what', 'value'], renderRows),
      ...(render.browserSkipped === undefined ? [] : ['', `Chromium skipped: ${render.browserSkipped}`]),
    ].join('\n'),
  };
}
