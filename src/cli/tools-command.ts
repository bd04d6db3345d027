import { parseArgs } from 'node:util';
import { createCodeTools } from '../explore/create-code-tools.js';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './cli-io.js';
import { helpTexts } from './help-texts.js';

interface PropertySchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly items?: PropertySchema;
}

/** `tools --repo DIR`: lists the code tools with their parameters. */
export async function toolsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      repo: { type: 'string', default: '.' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout(`${helpTexts.tools}\n`);
    return exitCodes.ok;
  }
  const registry = createCodeTools({ root: values.repo });
  if (values.json) {
    const definitions = Object.values(registry).map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
    }));
    io.stdout(`${JSON.stringify(definitions, null, 2)}\n`);
    return exitCodes.ok;
  }
  const lines: string[] = [];
  for (const tool of Object.values(registry)) {
    lines.push(`${tool.name}`, `  ${tool.description.split('\n')[0]}`);
    const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, PropertySchema>;
    const required = new Set((tool.inputSchema['required'] ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      const type = schema.enum
        ? schema.enum.map((value) => JSON.stringify(value)).join(' | ')
        : describeType(schema);
      const flags = required.has(name)
        ? 'required'
        : schema.default === undefined
          ? 'optional'
          : `default ${JSON.stringify(schema.default)}`;
      lines.push(`    ${name}: ${type} (${flags})${schema.description ? ` - ${schema.description}` : ''}`);
    }
    lines.push('');
  }
  io.stdout(`${lines.join('\n')}`);
  return exitCodes.ok;
}

function describeType(schema: PropertySchema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return type === 'array' && schema.items ? `${describeType(schema.items)}[]` : String(type);
}
