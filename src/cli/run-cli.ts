import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';
import { cliCommands } from './cli-commands.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes, jsonError } from './cli-io.js';
import { CommandFailure } from './command-failure.js';
import { mainHelp } from './help-texts.js';
import { createTerminalStyle } from './terminal-style.js';
import { packageVersion } from './version.js';

/**
 * Runs the CLI with `argv` (without `node` and the script) and resolves to its exit code. Every
 * command's errors are printed here, one way: a usage error with a pointer to the command's help
 * (exit 2), a failure with its message (exit 1); with `--json`, either as
 * `{"error": {"code", "message"}}` on stdout and nothing on stderr.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === '--version' || command === '-v') {
    io.stdout(`tool-orchestrator ${packageVersion}\n`);
    return exitCodes.ok;
  }
  if (command === '--help' || command === '-h') {
    io.stdout(`${mainHelp()}\n`);
    return exitCodes.ok;
  }
  if (command === undefined) {
    io.stderr(`${mainHelp()}\n`);
    return exitCodes.usage;
  }
  if (command === 'help') return help(rest, io);
  const entry = cliCommands.find((candidate) => candidate.name === command);
  const json = wantsJson(rest);
  if (entry === undefined) {
    const message = command.startsWith('-')
      ? `unknown flag ${command}; see tool-orchestrator --help`
      : `unknown command ${JSON.stringify(command)}. Commands: ${cliCommands.map((candidate) => candidate.name).join(', ')}; see tool-orchestrator --help`;
    return report(
      new UsageError(message, {
        code: command.startsWith('-') ? 'unknown_flag' : 'unknown_command',
        helpHint: false,
      }),
      'tool-orchestrator',
      io,
      json,
    );
  }
  try {
    const handler = await entry.load();
    return await handler(rest, io);
  } catch (error) {
    return report(error, command, io, json);
  }
}

/** `help [command]`: the top-level help, or the command's own `--help`. */
async function help(argv: readonly string[], io: CliIo): Promise<number> {
  const [name] = argv;
  if (name === undefined) {
    io.stdout(`${mainHelp()}\n`);
    return exitCodes.ok;
  }
  const entry = cliCommands.find((candidate) => candidate.name === name);
  if (entry === undefined) {
    return report(
      new UsageError(
        `no help for ${JSON.stringify(name)}: not a command. Commands: ${cliCommands.map((candidate) => candidate.name).join(', ')}; see tool-orchestrator --help`,
        { code: 'unknown_command', helpHint: false },
      ),
      'tool-orchestrator',
      io,
      false,
    );
  }
  return (await entry.load())(['--help'], io);
}

/** `--json` among the flags (before a `--` that ends them). */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function report(error: unknown, command: string, io: CliIo, json: boolean): number {
  const prefix = command === 'tool-orchestrator' ? 'tool-orchestrator' : `tool-orchestrator ${command}`;
  if (error instanceof UsageError) {
    if (json) {
      io.stdout(jsonError(error.code, error.message));
    } else if (error.helpHint) {
      io.stderr(`${styledPrefix(io, prefix)}: ${error.message}\nsee tool-orchestrator ${command} --help\n`);
    } else {
      // The message names the command and its help already.
      io.stderr(`${styledPrefix(io, 'tool-orchestrator')}: ${error.message}\n`);
    }
    return exitCodes.usage;
  }
  if (error instanceof CommandFailure) {
    if (json) io.stdout(jsonError(error.code, error.message, error.details));
    else io.stderr(`${styledPrefix(io, prefix)}: ${error.message}\n`);
    return error.exitCode;
  }
  const code = ToolOrchestratorError.isInstance(error) ? error.code : 'internal';
  const message = error instanceof Error ? error.message : String(error);
  if (json) {
    io.stdout(jsonError(code, message));
  } else {
    const name = ToolOrchestratorError.isInstance(error)
      ? `${error.name} (${error.code})`
      : error instanceof Error
        ? error.name
        : 'Error';
    io.stderr(`${styledPrefix(io, prefix)}: ${name}: ${message}\n`);
  }
  return exitCodes.failure;
}

function styledPrefix(io: CliIo, prefix: string): string {
  return createTerminalStyle(io.colors.stderr).red(prefix);
}
