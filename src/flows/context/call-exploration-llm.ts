import type { ModelAdapter } from '../../model/model-adapter.js';
import { addUsage, emptyUsage } from '../../model/usage.js';
import type { Usage } from '../../model/usage.js';
import { generateStructured, jsonSchemaOf } from '../shared/generate-structured.js';
import { ExplorationInput, ExplorationResponse } from './context-schemas.js';

/** What {@link callExplorationLlm} needs besides its serialisable input. */
export interface CallExplorationLlmDependencies {
  readonly adapter: ModelAdapter;
  readonly signal?: AbortSignal;
}

/** The serialisable output of {@link callExplorationLlm}. */
export interface ExplorationOutput {
  readonly response: ExplorationResponse;
  /** True when a repair call was needed. */
  readonly repaired: boolean;
  /** Summed over every call made, the repair call included; absent when no response reported usage. */
  readonly usage?: Usage;
}

/**
 * One round, step 1: shows the model the task, the context so far and the provider menu,
 * and asks for an `ExplorationResponse`. Input and output are plain JSON, so a workflow
 * engine can run it as an activity.
 *
 * @throws {StructuredOutputError} when the answer is not a valid `ExplorationResponse`.
 */
export async function callExplorationLlm(
  input: ExplorationInput,
  dependencies: CallExplorationLlmDependencies,
): Promise<ExplorationOutput> {
  const parsed = ExplorationInput.parse(input);
  const menu = parsed.providers.map(
    (provider) =>
      `- ${provider.name}: ${provider.description}\n  parameters: ${JSON.stringify(provider.parameters)}`,
  );
  const system = [
    'You gather the context needed for a task, one round at a time, by asking context providers for it.',
    `This is round ${parsed.round} of at most ${parsed.maxRounds}.`,
    '',
    'Providers:',
    ...menu,
    '',
    'Answer with one JSON object and nothing else, matching this JSON Schema:',
    JSON.stringify(jsonSchemaOf(ExplorationResponse)),
    'Each request names a provider, its params and the reason you need it. Do not repeat requests already',
    'answered below. When the context is enough for the task, answer {"requests": []}.',
  ].join('\n');
  const user = `Task:\n${parsed.task}\n\nContext so far:\n${parsed.context === '' ? '(none yet)' : parsed.context}`;
  const result = await generateStructured({
    adapter: dependencies.adapter,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: user },
    ],
    schema: ExplorationResponse,
    schemaName: 'ExplorationResponse',
    repair: parsed.repair,
    structuredOutput: parsed.structuredOutput,
    ...(dependencies.signal === undefined ? {} : { signal: dependencies.signal }),
  });
  const usage = result.responses.some((response) => response.usage !== undefined)
    ? result.responses.reduce((total, response) => addUsage(total, response.usage), emptyUsage)
    : undefined;
  return { response: result.value, repaired: result.repaired, ...(usage === undefined ? {} : { usage }) };
}
