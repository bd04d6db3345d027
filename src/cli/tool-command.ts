import { createCodeTools, codeToolNames } from '../explore/create-code-tools.js';
import type { Tool } from '../tools/define-tool.js';
import { ToolRunner } from '../tools/tool-runner.js';
import type { CliIo } from './cli-io.js';
import { UsageError, exitCodes } from './cli-io.js';
import { repoFlag } from './flag-values.js';
import { helpTexts } from './help-texts.js';
import { parseFlags } from './parse-flags.js';
import { contentAsText } from '../model/content-parts.js';
import { exampleCommand, formatToolParameters, toolParameters } from './tool-parameters.js';

/** `tool <name> [json-args] --repo DIR`: runs one code tool with no model. */
export async function toolCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(
    'tool',
    {
      repo: { type: 'string', default: '.', placeholder: 'DIR' },
      json: { type: 'boolean' },
      'allow-external-git-dir': { type: 'boolean' },
    },
    argv,
  );
  if (values.help) {
    io.stdout(`${helpTexts.tool}\n`);
    return exitCodes.ok;
  }
  const [name, rawArguments, ...extra] = positionals;
  if (name === undefined) {
    throw new UsageError(
      `missing the tool name, e.g. tool-orchestrator tool list_files --repo . Tools: ${codeToolNames.join(', ')}.`,
      { code: 'missing_argument' },
    );
  }
  if (!codeToolNames.includes(name)) {
    throw new UsageError(
      `unknown tool ${JSON.stringify(name)}. Tools: ${codeToolNames.join(', ')} (tool-orchestrator tools lists their parameters).`,
      { code: 'invalid_argument' },
    );
  }
  const root = repoFlag(values.repo);
  const registry = createCodeTools({
    root,
    tools: [name],
    allowExternalGitDir: values['allow-external-git-dir'],
  });
  const tool = registry[name] as Tool;
  if (extra.length > 0) {
    throw argumentsError(
      tool,
      `unexpected argument ${JSON.stringify(extra[0])}: pass the tool's arguments as one JSON object in single quotes.`,
    );
  }
  const input = checkArguments(tool, rawArguments);
  const runner = new ToolRunner(registry);
  const [outcome] = await runner.executeToolCalls(
    registry,
    [{ id: 'cli', type: 'function', function: { name, arguments: JSON.stringify(input) } }],
    { requestId: 'cli', runId: 'cli', turnIndex: 0, signal: new AbortController().signal },
  );
  if (outcome === undefined) return exitCodes.failure;
  if (values.json) {
    io.stdout(
      `${JSON.stringify({ ok: outcome.error === undefined, content: outcome.content, error: outcome.error ?? null })}\n`,
    );
  } else if (outcome.error === undefined) {
    const text = contentAsText(outcome.content);
    io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  } else {
    io.stderr(`error: ${outcome.error}\n`);
  }
  return outcome.error === undefined ? exitCodes.ok : exitCodes.failure;
}

/**
 * Checks the JSON arguments as a person typed them: valid JSON, one object, only the tool's own
 * parameters (an unknown key is an error here, though the model's extra keys are ignored), and the
 * tool's schema. Returns the parsed object.
 */
function checkArguments(tool: Tool, raw: string | undefined): Record<string, unknown> {
  if (raw === undefined || raw.trim() === '') raw = '{}';
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw argumentsError(
      tool,
      `the arguments ${JSON.stringify(raw)} are not valid JSON (${error instanceof Error ? error.message : String(error)}). Put them in single quotes so the shell keeps the double quotes.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw argumentsError(tool, `the arguments must be one JSON object, not ${JSON.stringify(value)}.`);
  }
  const known = new Set(toolParameters(tool.inputSchema).map((parameter) => parameter.name));
  const unknown = Object.keys(value).filter((key) => !known.has(key));
  if (unknown.length > 0) {
    const guesses = unknown.flatMap((key) => {
      const guess = [...known].find((name) => editDistance(key, name) <= 2);
      if (guess === undefined) return [];
      return [unknown.length === 1 ? `"${guess}"` : `"${guess}" for "${key}"`];
    });
    throw argumentsError(
      tool,
      `${tool.name} has no parameter ${unknown.map((key) => JSON.stringify(key)).join(', ')}.${guesses.length === 0 ? '' : ` Did you mean ${guesses.join(', ')}?`}`,
    );
  }
  const validated = tool.schema.validate(value);
  if (!validated.success) {
    const problems = validated.issues.map((issue) => {
      const where = issue.path.length === 0 ? '(the object)' : issue.path.join('.');
      const missing =
        issue.path.length === 1 && (value as Record<string, unknown>)[String(issue.path[0])] === undefined;
      return `  ${where}: ${missing ? 'missing; it is required' : issue.message}`;
    });
    throw argumentsError(tool, `the arguments do not fit ${tool.name}'s parameters:\n${problems.join('\n')}`);
  }
  return value as Record<string, unknown>;
}

function argumentsError(tool: Tool, problem: string): UsageError {
  return new UsageError(
    `${problem}\n\nParameters of ${tool.name}:\n${formatToolParameters(tool, '  ').join('\n')}\n\nExample:\n  ${exampleCommand(tool)}`,
    { code: 'invalid_argument' },
  );
}

/** Levenshtein distance, for "did you mean" on short parameter names. */
function editDistance(first: string, second: string): number {
  let previous = Array.from({ length: second.length + 1 }, (_, index) => index);
  for (let row = 1; row <= first.length; row++) {
    const current = [row];
    for (let column = 1; column <= second.length; column++) {
      const cost = first[row - 1] === second[column - 1] ? 0 : 1;
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, previous[column - 1]! + cost));
    }
    previous = current;
  }
  return previous[second.length]!;
}
