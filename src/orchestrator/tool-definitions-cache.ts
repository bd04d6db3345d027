import type { ModelToolDefinition } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';

/**
 * The model's tool definitions of a registry, derived again only when the registry's tools changed:
 * the check compares the registry's tool objects with those of the last derivation, in order, so
 * it costs a pass over the registry per read, not a new array.
 */
export class ToolDefinitionsCache {
  readonly #registry: ToolRegistry;
  #tools: unknown[] = [];
  #definitions: readonly ModelToolDefinition[] = [];

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
    this.current();
  }

  current(): readonly ModelToolDefinition[] {
    const tools = this.#tools;
    let index = 0;
    let same = true;
    for (const key in this.#registry) {
      if (!Object.hasOwn(this.#registry, key)) continue;
      if (tools[index] !== this.#registry[key]) {
        same = false;
        break;
      }
      index++;
    }
    if (same && index === tools.length) return this.#definitions;
    this.#tools = Object.values(this.#registry);
    this.#definitions = modelToolDefinitions(this.#registry);
    return this.#definitions;
  }
}

/** Derives the OpenAI-style function definitions the model sees from a registry. */
export function modelToolDefinitions(registry: ToolRegistry): ModelToolDefinition[] {
  return Object.values(registry).map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.inputSchema,
      ...(tool.strict === undefined ? {} : { strict: tool.strict }),
    },
  }));
}
