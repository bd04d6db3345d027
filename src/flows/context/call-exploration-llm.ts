import type { ModelAdapter } from '../../model/model-adapter.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import type { Usage } from '../../model/usage.js';
import type { TraceEmitter } from '../../tracing/trace-events.js';
import { jsonSchemaOf } from '../shared/flow-schemas.js';
import { ExplorationInput, ExplorationResponse } from './context-schemas.js';

/** What {@link callExplorationLlm} needs besides its serialisable input. */
export interface CallExplorationLlmDependencies {
  readonly adapter: ModelAdapter;
  readonly signal?: AbortSignal;
  /** Receives the call's trace: a run of its own (`run_start`, each `llm_call`, `run_end`). */
  readonly traceEmitter?: TraceEmitter;
  /** Stamped on those events: the run this call belongs to. */
  readonly parentRunId?: string;
}

/** The serialisable output of {@link callExplorationLlm}. */
export interface ExplorationOutput {
  readonly response: ExplorationResponse;
  /**
   * True when the first answer was not a valid response and another call was made: the repair
   * call, or (without native structured output) the call that forces the `ExplorationResponse` tool.
   */
  readonly repaired: boolean;
  /** Summed over every call made, the repair call included; absent when no response reported usage. */
  readonly usage?: Usage;
}

/**
 * One round, step 1: shows the model the task, the context so far and the provider menu,
 * and asks for an `ExplorationResponse`. The call is a `ToolOrchestrator` run with no tools whose
 * typed `output` is the `ExplorationResponse`: the provider's native structured output when the
 * adapter has it, else an `ExplorationResponse` tool (a JSON answer in text is taken too); an
 * answer that misses the schema gets one repair call unless `repair` is false. Input and output
 * are plain JSON, so a workflow engine can run it as an activity.
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
    'Answer with one ExplorationResponse: call the ExplorationResponse tool when you have one, else answer with',
    'one JSON object and nothing else. Its JSON Schema:',
    JSON.stringify(jsonSchemaOf(ExplorationResponse)),
    'Each request names a provider, its params and the reason you need it. Do not repeat requests already',
    'answered below. When the context is enough for the task, answer {"requests": []}.',
  ].join('\n');
  const user = `Task:\n${parsed.task}\n\nContext so far:\n${parsed.context === '' ? '(none yet)' : parsed.context}`;
  const orchestrator = new ToolOrchestrator(
    dependencies.adapter,
    {},
    {
      ...(dependencies.traceEmitter === undefined ? {} : { traceEmitter: dependencies.traceEmitter }),
      ...(dependencies.parentRunId === undefined ? {} : { parentRunId: dependencies.parentRunId }),
    },
  );
  const result = await orchestrator.run([{ role: 'user', content: user }], system, {
    output: { schema: ExplorationResponse, name: 'ExplorationResponse', repair: parsed.repair },
    ...(dependencies.signal === undefined ? {} : { signal: dependencies.signal }),
  });
  if (result.stopReason === 'aborted') dependencies.signal?.throwIfAborted();
  if (result.output === undefined) {
    throw new Error(
      `The exploration call ended (${result.stopReason}) without an ExplorationResponse; its trace's output_missing warning says why.`,
    );
  }
  const calls = result.traces.flatMap((event) => (event.type === 'llm_call' ? [event] : []));
  return {
    response: result.output,
    repaired: calls.length > 1,
    ...(calls.some((call) => call.data.usage !== undefined) ? { usage: result.usage } : {}),
  };
}
