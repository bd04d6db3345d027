import type { ModelAdapter, ModelResponse } from '../../model/model-adapter.js';

/** Options of {@link generateWithContext}. */
export interface GenerateWithContextOptions {
  readonly adapter: ModelAdapter;
  /** The task, as given to `exploreContext`. */
  readonly task: string;
  /** The accumulated context, `exploreContext(...).context`. */
  readonly context: string;
  /** @default 'Complete the task using the context provided. Cite file paths where it helps.' */
  readonly systemPrompt?: string;
  readonly signal?: AbortSignal;
}

/**
 * The final call after {@link exploreContext}: the task plus the accumulated context, no tools.
 * Resolves to the model's whole response (its `content` is the answer).
 *
 * @example
 * const explored = await exploreContext({ adapter, providers, task });
 * const { content } = await generateWithContext({ adapter, task, context: explored.context });
 */
export function generateWithContext(options: GenerateWithContextOptions): Promise<ModelResponse> {
  const system =
    options.systemPrompt ?? 'Complete the task using the context provided. Cite file paths where it helps.';
  return options.adapter.call(
    [
      { role: 'system', content: system },
      {
        role: 'user',
        content: `Task:\n${options.task}\n\nContext:\n${options.context === '' ? '(none)' : options.context}`,
      },
    ],
    [],
    options.signal === undefined ? {} : { signal: options.signal },
  );
}
