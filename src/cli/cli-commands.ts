import type { CliIo } from './cli-io.js';

/** A command's entry point: its arguments after the command name; resolves to the exit code. */
export type CommandHandler = (argv: readonly string[], io: CliIo) => Promise<number>;

/** One command of the CLI, as the top-level help lists it. */
export interface CliCommand {
  /** The word typed after `tool-orchestrator`. */
  readonly name: string;
  /** Its synopsis, e.g. `tool <name> [json-args] --repo DIR`. */
  readonly usage: string;
  /** What it does, in a few words. */
  readonly summary: string;
  /**
   * Loads the handler on demand: the code tools pull in the TypeScript compiler and `explore` the
   * openai client, which would slow `--help` and usage errors down to most of a second.
   */
  readonly load: () => Promise<CommandHandler>;
}

/**
 * Every command, in help order. A new command adds one entry here and its handler in its own file;
 * the handler parses flags with `parseFlags` (which adds `-h, --help` and words flag mistakes) and
 * throws `UsageError` for bad values, so messages and exit codes match the other commands.
 */
export const cliCommands: readonly CliCommand[] = [
  {
    name: 'tool',
    usage: 'tool <name> [json-args] --repo DIR',
    summary: 'run one code tool, no model needed',
    load: async () => (await import('./tool-command.js')).toolCommand,
  },
  {
    name: 'tools',
    usage: 'tools --repo DIR',
    summary: 'list the tools and their parameters',
    load: async () => (await import('./tools-command.js')).toolsCommand,
  },
  {
    name: 'explore',
    usage: 'explore "<question>" --repo DIR',
    summary: 'run the explorer agent, print its JSON report',
    load: async () => (await import('./explore-command.js')).exploreCommand,
  },
  {
    name: 'mcp',
    usage: 'mcp serve --repo DIR',
    summary: 'serve the code tools to MCP hosts over stdio',
    load: async () => (await import('./mcp-command.js')).mcpCommand,
  },
  {
    name: 'eval',
    usage: 'eval SUITE.mjs [--compare BASELINE.json]',
    summary: 'score an agent on a dataset, compare with a baseline',
    load: async () => (await import('./eval-command.js')).evalCommand,
  },
  {
    name: 'trace',
    usage: 'trace view RUN.jsonl',
    summary: 'render a JSONL trace as one HTML page',
    load: async () => (await import('./trace-command.js')).traceCommand,
  },
];
