import type { ModelToolDefinition } from '../model/model-adapter.js';
import { canonicalJson } from '../shared/canonical-json.js';
import { hashText } from '../shared/hash-text.js';
import type { ToolRegistry } from '../tools/define-tool.js';

/** What a run was saved with: its tools (each name with a hash of its JSON Schema) and model. */
export interface RunFingerprint {
  /** Each tool's name mapped to a hash of its JSON Schema (16 hex digits, FNV-1a 64 of the key-sorted JSON). */
  readonly tools: { readonly [toolName: string]: string };
  /** The adapter's model, when it names one. */
  readonly model?: string;
}

/** Options of {@link fingerprintRun}. */
export interface FingerprintRunOptions {
  /** The run's tools: a registry (`{ name: defineTool(...) }`) or the definitions sent to the model. */
  readonly tools: ToolRegistry | readonly ModelToolDefinition[];
  /** The adapter's model, when it has one (e.g. `'gpt-4o'`). @default none */
  readonly model?: string | undefined;
}

/** One difference between a saved fingerprint and the current one. */
export type FingerprintChange =
  | { readonly type: 'tool_added'; readonly toolName: string }
  | { readonly type: 'tool_removed'; readonly toolName: string }
  | { readonly type: 'tool_schema_changed'; readonly toolName: string }
  | {
      readonly type: 'model_changed';
      readonly savedModel: string | undefined;
      readonly currentModel: string | undefined;
    };

/**
 * Fingerprints a run's tool set and model: each tool's name with a hash of its JSON Schema (keys
 * sorted, so key order does not count), and the model. Descriptions are not part of it: rewording
 * one does not stop a resume. Pure and runtime-neutral.
 *
 * @example
 * const fingerprint = fingerprintRun({ tools: { add }, model: 'gpt-4o' });
 * // { tools: { add: '3f1c...' }, model: 'gpt-4o' }
 */
export function fingerprintRun(options: FingerprintRunOptions): RunFingerprint {
  const schemas: [string, unknown][] = Array.isArray(options.tools)
    ? (options.tools as readonly ModelToolDefinition[]).map((tool) => [
        tool.function.name,
        tool.function.parameters,
      ])
    : Object.values(options.tools as ToolRegistry).map((tool) => [tool.name, tool.inputSchema]);
  // fromEntries defines own keys, so a tool named "__proto__" is kept like any other.
  const tools: { [toolName: string]: string } = Object.fromEntries(
    schemas
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, schema]) => [name, hashText(canonicalJson(schema))]),
  );
  return options.model === undefined ? { tools } : { tools, model: options.model };
}

/**
 * Compares the fingerprint a run was saved with to the current one and lists what changed: tools
 * added or removed, tools whose schema changed, and the model (a model known on one side only
 * counts as a change). An empty list means the run can be resumed as it is.
 */
export function compareFingerprints(saved: RunFingerprint, current: RunFingerprint): FingerprintChange[] {
  const changes: FingerprintChange[] = [];
  for (const toolName of Object.keys(saved.tools).sort()) {
    if (!Object.hasOwn(current.tools, toolName)) changes.push({ type: 'tool_removed', toolName });
    else if (current.tools[toolName] !== saved.tools[toolName]) {
      changes.push({ type: 'tool_schema_changed', toolName });
    }
  }
  for (const toolName of Object.keys(current.tools).sort()) {
    if (!Object.hasOwn(saved.tools, toolName)) changes.push({ type: 'tool_added', toolName });
  }
  if (saved.model !== current.model) {
    changes.push({ type: 'model_changed', savedModel: saved.model, currentModel: current.model });
  }
  return changes;
}

/** One change in words, e.g. `the schema of tool "search" changed`. */
export function describeFingerprintChange(change: FingerprintChange): string {
  switch (change.type) {
    case 'tool_added':
      return `tool "${change.toolName}" was added`;
    case 'tool_removed':
      return `tool "${change.toolName}" was removed`;
    case 'tool_schema_changed':
      return `the schema of tool "${change.toolName}" changed`;
    case 'model_changed':
      return `the model changed from ${quoted(change.savedModel)} to ${quoted(change.currentModel)}`;
  }
}

function quoted(model: string | undefined): string {
  return model === undefined ? 'none named' : `"${model}"`;
}
