import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { CommandFailure } from './command-failure.js';
import { describeFileError } from './flag-values.js';
import { parseFlags } from './parse-flags.js';

/** The help of `trace`; kept here, beside the command. */
const traceHelp = `Usage: tool-orchestrator trace view RUN.jsonl [-o RUN.html] [--open]

Renders a JSONL trace (explore --trace, or createJsonlSink) as one self-contained HTML page that
loads nothing from the network: runs and subagents, a timeline of turns, every model and tool call,
warnings and errors, totals, a filter box and keyboard navigation. Prints the page's path.

Flags:
  -o, --output FILE     where to write the page (default: RUN.html beside RUN.jsonl)
  --open                open the page in a browser ($BROWSER, else open / xdg-open / start)
  --title TEXT          the page title (default: the first run's question)
  -h, --help            show this help`;

/** `trace view RUN.jsonl [-o RUN.html] [--open]`: renders a JSONL trace as one self-contained HTML page. */
export async function traceCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = argv;
  if (subcommand === '--help' || subcommand === '-h') {
    io.stdout(`${traceHelp}\n`);
    return exitCodes.ok;
  }
  if (subcommand === undefined) {
    throw new UsageError('missing what to do: tool-orchestrator trace view RUN.jsonl', {
      code: 'missing_argument',
    });
  }
  if (subcommand !== 'view') {
    throw new UsageError(
      `unknown trace command ${JSON.stringify(subcommand)}: use tool-orchestrator trace view RUN.jsonl`,
      { code: 'unknown_command' },
    );
  }
  const { values, positionals } = parseFlags(
    'trace view',
    {
      output: { type: 'string', short: 'o', placeholder: 'FILE' },
      open: { type: 'boolean' },
      title: { type: 'string', placeholder: 'TEXT' },
    },
    rest,
  );
  if (values.help) {
    io.stdout(`${traceHelp}\n`);
    return exitCodes.ok;
  }
  const [input, ...extra] = positionals;
  if (input === undefined) {
    throw new UsageError('missing the trace file, e.g. tool-orchestrator trace view run.jsonl', {
      code: 'missing_argument',
    });
  }
  if (extra.length > 0) {
    throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}: pass one trace file.`, {
      code: 'invalid_argument',
    });
  }
  const output = values.output ?? htmlPathFor(input);
  if (resolve(output) === resolve(input)) {
    throw new UsageError(
      `-o ${JSON.stringify(output)} is the trace file itself: choose another output path.`,
      {
        code: 'invalid_flag_value',
      },
    );
  }
  // The viewer loads only now that the flags are good.
  const [{ readJsonl }, { renderTraceHtml }] = await Promise.all([
    import('../trace/read-jsonl.js'),
    import('../trace/render-trace-html.js'),
  ]);
  const events = await readJsonl(input);
  try {
    await writeFile(
      output,
      renderTraceHtml(events, values.title === undefined ? {} : { title: values.title }),
    );
  } catch (error) {
    throw new CommandFailure(`cannot write ${output}: ${describeFileError(error)}`, {
      code: 'output_file',
      cause: error,
    });
  }
  io.stdout(`${output}\n`);
  io.stderr(`wrote ${output}: ${events.length} events from ${input}\n`);
  if (values.open) await openInBrowser(resolve(output), io);
  return exitCodes.ok;
}

/** `run.jsonl` → `run.html`, beside it. */
function htmlPathFor(input: string): string {
  const extension = extname(input);
  const stem = ['.jsonl', '.ndjson', '.json'].includes(extension.toLowerCase())
    ? basename(input, extension)
    : basename(input);
  return join(dirname(input), `${stem}.html`);
}

/** Opens the page with `$BROWSER`, or the platform's opener; says what to do when none starts. */
async function openInBrowser(path: string, io: CliIo): Promise<void> {
  const browser = io.env['BROWSER'];
  const [command, args] =
    browser !== undefined && browser !== ''
      ? [browser, [path]]
      : process.platform === 'darwin'
        ? ['open', [path]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', path]]
          : ['xdg-open', [path]];
  const started = await new Promise<Error | undefined>((settle) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', (error) => settle(error));
    child.once('spawn', () => {
      child.unref();
      settle(undefined);
    });
  });
  if (started !== undefined) {
    io.stderr(
      `could not start ${command} to open the page (${started.message}); open ${path} in a browser, or set BROWSER.\n`,
    );
  }
}
