import { createWriteStream } from 'node:fs';
import { parseArgs } from 'node:util';
import type { ExplorerDepth } from '../flows/explorer/explorer-depth.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { createCliAdapter } from './create-cli-adapter.js';
import { helpTexts } from './help-texts.js';
import { createProgressPrinter } from './progress-printer.js';

/** `explore "<question>" --repo DIR`: runs the explorer subagent and prints its JSON report. */
export async function exploreCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      repo: { type: 'string', default: '.' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-turns': { type: 'string' },
      depth: { type: 'string', default: 'normal' },
      trace: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(`${helpTexts.explore}\n`);
    return exitCodes.ok;
  }
  const question = positionals.join(' ').trim();
  if (question === '')
    throw new UsageError(
      'missing the question, e.g. tool-orchestrator explore "How are requests sent?" --repo .',
    );
  const maxTurns = values['max-turns'] === undefined ? undefined : Number(values['max-turns']);
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw new UsageError(
      `--max-turns ${JSON.stringify(values['max-turns'])} must be a whole number of at least 1.`,
    );
  }
  if (!['shallow', 'normal', 'deep'].includes(values.depth)) {
    throw new UsageError(`--depth ${JSON.stringify(values.depth)} must be shallow, normal or deep.`);
  }
  const adapter = await createCliAdapter(
    { provider: values.provider, model: values.model, baseUrl: values['base-url'] },
    io.env,
  );
  const sinks: ((event: TraceEvent) => void)[] = [];
  const traceFile = values.trace === undefined ? undefined : createWriteStream(values.trace, { flags: 'w' });
  if (traceFile !== undefined) sinks.push((event) => traceFile.write(`${JSON.stringify(event)}\n`));
  // Stream only for live progress: reasoning shows as it arrives; otherwise whole responses are cheaper.
  const showProgress = !values.json && io.stderrIsTty;
  if (showProgress) sinks.push(createProgressPrinter({ write: io.stderr }));
  try {
    // The explorer loads the code tools and the TypeScript compiler: only now that the flags are good.
    const { runExplorer } = await import('../flows/explorer/run-explorer.js');
    const report = await runExplorer({
      adapter,
      root: values.repo,
      question,
      depth: values.depth as ExplorerDepth,
      ...(maxTurns === undefined ? {} : { maxTurns }),
      stream: showProgress && typeof adapter.stream === 'function',
      traceEmitter: (event) => {
        for (const sink of sinks) sink(event);
      },
    });
    io.stdout(`${JSON.stringify(report, null, values.json ? undefined : 2)}\n`);
    return exitCodes.ok;
  } finally {
    if (traceFile !== undefined) await new Promise<void>((resolve) => traceFile.end(resolve));
  }
}
