import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';
import { MissingApiKeyError } from '../errors/missing-api-key-error.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { helpTexts } from './help-texts.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

// Loaded on demand: the code tools pull in the TypeScript compiler and `explore` the openai client,
// which would slow `--help` and usage errors down to most of a second.
const commands: Record<string, () => Promise<Command>> = {
  tool: async () => (await import('./tool-command.js')).toolCommand,
  tools: async () => (await import('./tools-command.js')).toolsCommand,
  explore: async () => (await import('./explore-command.js')).exploreCommand,
};

/** Runs the CLI with `argv` (without `node` and the script) and resolves to its exit code. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.stdout(`${helpTexts.main}\n`);
    return command === undefined ? exitCodes.usage : exitCodes.ok;
  }
  const load = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (load === undefined) {
    io.stderr(
      `tool-orchestrator: unknown command ${JSON.stringify(command)}. Commands: ${Object.keys(commands).join(', ')}. See --help.\n`,
    );
    return exitCodes.usage;
  }
  try {
    const handler = await load();
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
