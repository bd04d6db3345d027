import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';
import { explorerDepthTurns } from '../flows/explorer/explorer-depth.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { TraceEvent } from '../tracing/trace-events.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { CommandFailure } from './command-failure.js';
import { createCliAdapter, resolveModelSettings } from './create-cli-adapter.js';
import type { ModelSettings } from './create-cli-adapter.js';
import { ExploreRecorder } from './explore-recorder.js';
import { choiceFlag, positiveIntegerFlag, repoFlag } from './flag-values.js';
import { helpTexts } from './help-texts.js';
import { parseFlags } from './parse-flags.js';
import { ProgressPrinter } from './progress-printer.js';
import { oneLine, plural } from './progress-text.js';
import { createTerminalStyle } from './terminal-style.js';
import { openTraceFile } from './trace-file.js';
import type { TraceFile } from './trace-file.js';

/** `explore "<question>" --repo DIR`: runs the explorer subagent and prints its JSON report. */
export async function exploreCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    'explore',
    {
      repo: { type: 'string', default: '.', placeholder: 'DIR' },
      provider: { type: 'string', placeholder: 'deepseek' },
      model: { type: 'string', placeholder: 'NAME' },
      'base-url': { type: 'string', placeholder: 'http://127.0.0.1:11434/v1' },
      'max-turns': { type: 'string', placeholder: '10' },
      depth: { type: 'string', default: 'normal', placeholder: 'normal' },
      trace: { type: 'string', placeholder: 'FILE.jsonl' },
      record: { type: 'string', placeholder: 'CASSETTE.jsonl' },
      replay: { type: 'string', placeholder: 'CASSETTE.jsonl' },
      json: { type: 'boolean' },
    },
    argv,
  );
  if (values.help) {
    io.stdout(`${helpTexts.explore}\n`);
    return exitCodes.ok;
  }
  const question = positionals.join(' ').trim();
  if (question === '') {
    throw new UsageError(
      'missing the question, e.g. tool-orchestrator explore "How are requests sent?" --repo .',
      {
        code: 'missing_argument',
      },
    );
  }
  // Every flag is checked before anything is written or sent.
  const root = repoFlag(values.repo);
  const depth = choiceFlag('--depth', values.depth, ['shallow', 'normal', 'deep']);
  const maxTurns =
    values['max-turns'] === undefined
      ? undefined
      : positiveIntegerFlag('--max-turns', values['max-turns'], '10');
  if (values.record !== undefined && values.replay !== undefined) {
    throw new UsageError('--record and --replay exclude each other: record a session once, then replay it.', {
      code: 'invalid_flag_value',
    });
  }
  // A replay needs no model settings: the cassette answers.
  const settings =
    values.replay === undefined
      ? resolveModelSettings(
          { provider: values.provider, model: values.model, baseUrl: values['base-url'] },
          io.env,
        )
      : undefined;
  const traceFile = values.trace === undefined ? undefined : openTraceFile(values.trace);

  const recorder = new ExploreRecorder();
  const stderrStyle = createTerminalStyle(io.colors.stderr);
  // Live progress only on a terminal; it is also the only time the request is streamed.
  const printer =
    !values.json && io.stderrIsTty
      ? new ProgressPrinter({ write: io.stderr, style: stderrStyle, columns: io.columns })
      : undefined;
  const sinks = [recorder.handle, printer?.handle, traceFile?.write].filter(
    (sink): sink is (event: TraceEvent) => void => sink !== undefined,
  );
  const interrupt = io.trapInterrupts();
  interrupt.addEventListener(
    'abort',
    () => {
      printer?.stop();
      printer?.line('stopping after Ctrl-C; press it again to quit at once', stderrStyle.yellow);
    },
    { once: true },
  );
  let traceClosed = false;
  const closeTrace = async (): Promise<string | undefined> => {
    if (traceFile === undefined || traceClosed) return undefined;
    traceClosed = true;
    return traceFile.close();
  };
  try {
    const adapter = await cliAdapter(settings, values.record, values.replay);
    printer?.line(`exploring ${root}`, stderrStyle.bold);
    printer?.line(`  model ${adapter.model ?? 'unnamed'} (${adapter.provider ?? 'unknown provider'})`);
    printer?.line(settings === undefined ? `  replaying ${values.replay}` : `  endpoint ${settings.baseURL}`);
    if (values.record !== undefined) printer?.line(`  recording to ${values.record}`, stderrStyle.dim);
    printer?.line(
      `  depth ${depth}: up to ${plural(maxTurns ?? explorerDepthTurns[depth], 'turn')}; Ctrl-C stops`,
      stderrStyle.dim,
    );
    // The explorer loads the code tools and the TypeScript compiler: only now that the flags are good.
    const { runExplorer } = await import('../flows/explorer/run-explorer.js');
    const report = await runExplorer({
      adapter,
      root,
      question,
      depth,
      ...(maxTurns === undefined ? {} : { maxTurns }),
      stream: printer !== undefined && typeof adapter.stream === 'function',
      signal: interrupt,
      traceEmitter: (event) => {
        for (const sink of sinks) sink(event);
      },
    });
    printer?.stop();
    const repairs = recorder.repairCalls === 0 ? '' : ` and ${plural(recorder.repairCalls, 'repair call')}`;
    printer?.line(
      `done: ${plural(recorder.turns, 'turn')}${repairs}, ${recorder.totalTokens} tokens, ${(printer.elapsedMs() / 1000).toFixed(1)}s`,
      stderrStyle.green,
    );
    const traceFailure = await closeTrace();
    io.stdout(`${JSON.stringify(report, null, values.json ? undefined : 2)}\n`);
    if (traceFailure !== undefined) {
      io.stderr(
        `tool-orchestrator explore: could not write --trace file ${traceFile?.path}: ${traceFailure}\n`,
      );
      return exitCodes.failure;
    }
    return exitCodes.ok;
  } catch (error) {
    printer?.stop();
    await closeTrace();
    if (interrupt.aborted) throw interrupted(recorder, traceFile);
    throw settings === undefined ? error : explainFailure(error, settings);
  }
}

/** The run's adapter: the provider's, recorded to a cassette with `--record`, or a cassette's with `--replay`. */
async function cliAdapter(
  settings: ModelSettings | undefined,
  record: string | undefined,
  replay: string | undefined,
): Promise<ModelAdapter> {
  if (settings === undefined) {
    const { ReplayAdapter } = await import('../replay/replay-adapter.js');
    return new ReplayAdapter({ path: replay! });
  }
  const adapter = await createCliAdapter(settings);
  if (record === undefined) return adapter;
  const { recordModel } = await import('../replay/record-model.js');
  return recordModel(adapter, { path: record });
}

/** What Ctrl-C leaves: what the explorer looked at, and where the trace is. */
function interrupted(recorder: ExploreRecorder, traceFile: TraceFile | undefined): CommandFailure {
  const lines = [
    `interrupted (Ctrl-C) after ${plural(recorder.turns, 'turn')}, before the explorer wrote its report.`,
  ];
  if (recorder.toolCalls.length === 0) {
    lines.push('It had not called a tool yet.');
  } else {
    lines.push('What it looked at so far:');
    for (const call of recorder.toolCalls) {
      lines.push(
        `  ${call.name}(${oneLine(call.arguments, 100)}) -> ${call.ok ? '' : 'error: '}${oneLine(call.result, 100)}`,
      );
    }
  }
  if (traceFile === undefined) {
    lines.push('No trace was written; pass --trace FILE.jsonl to keep one.');
  } else {
    const ended = recorder.endedRuns > 0 && recorder.openRuns === 0;
    lines.push(
      `Trace: ${traceFile.path}${ended ? ' (complete: it ends with run_end)' : ' (no run had started)'}`,
    );
  }
  return new CommandFailure(lines.join('\n'), {
    code: 'interrupted',
    exitCode: exitCodes.interrupted,
    details: { turns: recorder.turns, toolCalls: recorder.toolCalls, trace: traceFile?.path ?? null },
  });
}

/** A connection error names the URL it tried and where that URL came from; other errors pass through. */
function explainFailure(error: unknown, settings: ModelSettings): unknown {
  if (!ToolOrchestratorError.isInstance(error) || error.code !== 'connection_error') return error;
  const from =
    settings.baseUrlSource === 'default'
      ? `the ${settings.provider} API`
      : settings.baseUrlSource === '--base-url'
        ? 'given with --base-url'
        : `from ${settings.baseUrlSource}`;
  const fix =
    settings.baseUrlSource === 'default'
      ? 'Check the network connection.'
      : `Is the server running? Check the URL (${settings.baseUrlSource}).`;
  return new CommandFailure(
    `could not reach ${settings.baseURL} (${from}): ${connectionReason(error)}. ${fix}`,
    { code: 'connection_error', cause: error },
  );
}

/**
 * The innermost reason of a failed connection: `connection refused (ECONNREFUSED)` for a known system
 * code, else the deepest cause's message (fetch's own, e.g. `bad port`), else the error's message.
 */
function connectionReason(error: Error): string {
  const words: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
    EHOSTUNREACH: 'host unreachable',
  };
  let reason = error.message;
  for (
    let cause: unknown = error.cause, depth = 0;
    cause instanceof Error && depth < 8;
    cause = cause.cause, depth++
  ) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && code in words) return `${words[code]} (${code})`;
    if (cause.message !== '' && cause.message !== 'fetch failed') reason = cause.message;
  }
  return reason.replace(/\.+$/, '');
}
