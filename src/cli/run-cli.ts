import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';
import { MissingApiKeyError } from '../errors/missing-api-key-error.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { exploreCommand } from './explore-command.js';
import { helpTexts } from './help-texts.js';
import { toolCommand } from './tool-command.js';
import { toolsCommand } from './tools-command.js';

const commands: Record<string, (argv: readonly string[], io: CliIo) => Promise<number>> = {
  tool: toolCommand,
  tools: toolsCommand,
  explore: exploreCommand,
};

/** Runs the CLI with `argv` (without `node` and the script) and resolves to its exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${helpTexts.main}\n`);
    return command === undefined ? exitCodes.usage : exitCodes.ok;
  }
  const handler = commands[command];
  if (handler === undefined) {
    io.stderr(
      `tool-orchestrator: unknown command ${JSON.stringify(command)}. Commands: ${Object.keys(commands).join(', ')}. See --help.\n`,
    );
    return exitCodes.usage;
  }
  try {
    return await handler(rest, io);
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error) || error instanceof MissingApiKeyError) {
      io.stderr(
        `tool-orchestrator ${command}: ${(error as Error).message}\nSee 'tool-orchestrator ${command} --help'.\n`,
      );
      return exitCodes.usage;
    }
    const name = ToolOrchestratorError.isInstance(error)
      ? `${error.name} (${error.code})`
      : error instanceof Error
        ? error.name
        : 'Error';
    io.stderr(
      `tool-orchestrator ${command}: ${name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return exitCodes.failure;
  }
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS');
}
