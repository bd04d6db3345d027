import { parseArgs } from 'node:util';
import { createCodeTools, codeToolNames } from '../explore/create-code-tools.js';
import { ToolRunner } from '../tools/tool-runner.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { helpTexts } from './help-texts.js';

/** `tool <name> [json-args] --repo DIR`: runs one code tool with no model. */
export async function toolCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      repo: { type: 'string', default: '.' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(`${helpTexts.tool}\n`);
    return exitCodes.ok;
  }
  const [name, rawArguments = '{}', ...extra] = positionals;
  if (name === undefined) throw new UsageError(`missing the tool name. Tools: ${codeToolNames.join(', ')}.`);
  if (extra.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(extra[0])}: pass the tool's arguments as one JSON object, quoted.`,
    );
  }
  if (!codeToolNames.includes(name)) {
    throw new UsageError(`unknown tool ${JSON.stringify(name)}. Tools: ${codeToolNames.join(', ')}.`);
  }
  const registry = createCodeTools({ root: values.repo, tools: [name] });
  const runner = new ToolRunner(registry);
  const controller = new AbortController();
  const [outcome] = await runner.executeToolCalls(
    registry,
    [{ id: 'cli', type: 'function', function: { name, arguments: rawArguments } }],
    { requestId: 'cli', runId: 'cli', turnIndex: 0, signal: controller.signal },
  );
  if (outcome === undefined) return exitCodes.failure;
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ ok: outcome.error === undefined, content: outcome.content, error: outcome.error ?? null })}\n`,
    );
  } else if (outcome.error === undefined) {
    io.stdout(outcome.content.endsWith('\n') ? outcome.content : `${outcome.content}\n`);
  } else {
    io.stderr(`error: ${outcome.error}\n`);
  }
  return outcome.error === undefined ? exitCodes.ok : exitCodes.failure;
}
