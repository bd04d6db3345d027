import type { ModelAdapter } from '../model/model-adapter.js';
import type { EvaluateOptions } from './evaluate.js';

/** A suite: `evaluate()`'s options but the signal and the progress callback, which the runner owns. */
export type EvalSuite<Input = unknown, Expected = unknown> = Omit<
  EvaluateOptions<Input, Expected>,
  'signal' | 'onProgress'
>;

/** How a suite asks for a model: the name tells its cassette apart from the suite's other models. */
export interface SuiteModelOptions {
  /** @default 'default' */
  readonly name?: string;
}

/** What a suite function is given. */
export interface EvalSuiteContext {
  /**
   * The adapter `create` makes, as the run asks for it: live, recorded to a cassette (`eval
   * --record`), or answered from one without calling `create` at all (`eval --replay`). Call it
   * while building the suite, once per model (the agent's, a judge's), each with its own `name`.
   */
  readonly model: (create: () => ModelAdapter, options?: SuiteModelOptions) => ModelAdapter;
}

/**
 * What a suite file exports (as `default` or `suite`): the suite itself, or a function of
 * `{ model }` that builds it, which `eval --record` and `--replay` need.
 *
 * @example
 * export default (({ model }) => {
 *   const adapter = model(() => new OpenAIAdapter({ model: 'gpt-5-mini' }));
 *   return { dataset, task: (input) => new ToolOrchestrator(adapter, tools).run(input), scorers };
 * }) satisfies EvalSuiteModule<string>;
 */
export type EvalSuiteModule<Input = unknown, Expected = unknown> =
  | EvalSuite<Input, Expected>
  | ((context: EvalSuiteContext) => EvalSuite<Input, Expected> | Promise<EvalSuite<Input, Expected>>);
