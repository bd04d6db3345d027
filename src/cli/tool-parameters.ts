import type { JsonSchema } from '../model/model-adapter.js';
import type { Tool } from '../tools/define-tool.js';

interface PropertySchema {
  readonly type?: string | readonly string[];
  readonly description?: string;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly items?: PropertySchema;
}

/** A tool's parameters from its JSON Schema: name, schema, and whether it is required. */
export function toolParameters(
  inputSchema: JsonSchema,
): { readonly name: string; readonly schema: PropertySchema; readonly required: boolean }[] {
  const properties = (inputSchema['properties'] ?? {}) as Record<string, PropertySchema>;
  const required = new Set((inputSchema['required'] ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => ({ name, schema, required: required.has(name) }));
}

/** One line per parameter, `    path: string (required) - File to read...`, as `tools` prints them. */
export function formatToolParameters(tool: Pick<Tool, 'inputSchema'>, indent = '    '): string[] {
  const parameters = toolParameters(tool.inputSchema);
  if (parameters.length === 0) return [`${indent}(no parameters)`];
  return parameters.map(({ name, schema, required }) => {
    const type = schema.enum
      ? schema.enum.map((value) => JSON.stringify(value)).join(' | ')
      : describeType(schema);
    const flags = required
      ? 'required'
      : schema.default === undefined
        ? 'optional'
        : `default ${JSON.stringify(schema.default)}`;
    return `${indent}${name}: ${type} (${flags})${schema.description ? ` - ${schema.description}` : ''}`;
  });
}

/**
 * A command line that runs `tool` with its required parameters, each given the value its description
 * shows after `e.g.` (or a placeholder of its type); with none required, the first optional parameter
 * that has such an example is shown.
 */
export function exampleCommand(tool: Pick<Tool, 'name' | 'inputSchema'>): string {
  const parameters = toolParameters(tool.inputSchema);
  let chosen = parameters.filter((parameter) => parameter.required);
  if (chosen.length === 0) {
    const optional = parameters.find((parameter) => exampleValue(parameter.schema) !== undefined);
    chosen = optional === undefined ? [] : [optional];
  }
  const args = Object.fromEntries(
    chosen.map(({ name, schema }) => [name, exampleValue(schema) ?? placeholder(schema)]),
  );
  const json = Object.keys(args).length === 0 ? '' : ` '${JSON.stringify(args)}'`;
  return `tool-orchestrator tool ${tool.name}${json} --repo .`;
}

function exampleValue(schema: PropertySchema): unknown {
  const quoted = /e\.g\. "([^"]+)"/.exec(schema.description ?? '')?.[1];
  if (quoted === undefined) return schema.enum?.[0];
  return describeType(schema).endsWith('[]') ? [quoted] : quoted;
}

function placeholder(schema: PropertySchema): unknown {
  const type = describeType(schema);
  if (type.endsWith('[]')) return [];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  return '...';
}

function describeType(schema: PropertySchema): string {
  const type = Array.isArray(schema.type) ? schema.type.join(' | ') : (schema.type ?? 'any');
  return type === 'array' && schema.items ? `${describeType(schema.items)}[]` : String(type);
}
