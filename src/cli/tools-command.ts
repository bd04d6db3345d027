import { createCodeTools } from '../explore/create-code-tools.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { repoFlag } from './flag-values.js';
import { helpTexts } from './help-texts.js';
import { parseFlags } from './parse-flags.js';
import { createTerminalStyle } from './terminal-style.js';
import { formatToolParameters } from './tool-parameters.js';

/** `tools --repo DIR`: lists the code tools with their parameters. */
export async function toolsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    'tools',
    {
      repo: { type: 'string', default: '.', placeholder: 'DIR' },
      json: { type: 'boolean' },
    },
    argv,
  );
  if (values.help) {
    io.stdout(`${helpTexts.tools}\n`);
    return exitCodes.ok;
  }
  if (positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(positionals[0])}: tools takes only flags. To run a tool: tool-orchestrator tool ${positionals[0]} --repo .`,
      { code: 'invalid_argument' },
    );
  }
  const registry = createCodeTools({ root: repoFlag(values.repo) });
  if (values.json) {
    const definitions = Object.values(registry).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    }));
    io.stdout(`${JSON.stringify(definitions, null, 2)}\n`);
    return exitCodes.ok;
  }
  const style = createTerminalStyle(io.colors.stdout);
  const lines: string[] = [];
  for (const tool of Object.values(registry)) {
    lines.push(
      style.bold(tool.name),
      `  ${tool.description.split('\n')[0]}`,
      ...formatToolParameters(tool),
      '',
    );
  }
  io.stdout(lines.join('\n'));
  return exitCodes.ok;
}
