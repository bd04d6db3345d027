import { existsSync } from 'node:fs';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { recordModel } from '../replay/record-model.js';
import { ReplayAdapter, matchByRequest } from '../replay/replay-adapter.js';
import type { RedactionRules } from '../replay/redact.js';
import type { EvalSuiteContext, SuiteModelOptions } from './eval-suite.js';

/** What `createSuiteModels` takes: at most one of `record` and `replay`. */
export interface SuiteModelsOptions {
  /** Record every model the suite asks for to cassettes named after this file (see `cassettePathFor`). */
  readonly record?: string;
  /** Answer every model the suite asks for from the cassettes `record` wrote, offline. */
  readonly replay?: string;
  /** Secrets to remove besides the defaults, when recording; the same rules when replaying. */
  readonly redact?: RedactionRules;
}

/** The context a suite function is given, and the names of the models it asked for. */
export interface SuiteModels {
  readonly context: EvalSuiteContext;
  /** The names passed to `model()` so far, in first-asked order. */
  readonly requested: () => readonly string[];
}

const modelName = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * The cassette of the model called `name` for the base path `path`: `path` itself for the
 * `'default'` model, else `name` inserted before the extension (`support.jsonl` → `support.judge.jsonl`).
 */
export function cassettePathFor(path: string, name: string): string {
  if (name === 'default') return path;
  const extension = /\.[^./\\]+$/.exec(path)?.[0] ?? '';
  return `${path.slice(0, path.length - extension.length)}.${name}${extension}`;
}

/**
 * The `model()` a suite function builds its adapters with: without `record` or `replay` it calls
 * each factory once per name; with `record` it wraps each adapter in `recordModel`, one cassette per
 * name; with `replay` it never calls the factory (no key, no network) and answers from that
 * model's cassette with `matchByRequest`, since cases run at once and their calls interleave
 * differently each time. The same name always gives the same adapter.
 *
 * @throws {InvalidArgumentError} when both `record` and `replay` are given; `model()` throws it for a
 * name that cannot be part of a file name, or, when replaying, a cassette that does not exist.
 * @example
 * const { context } = createSuiteModels({ replay: 'evals/support.jsonl' });
 * const report = await evaluate(buildSupportSuite(context));
 */
export function createSuiteModels(options: SuiteModelsOptions = {}): SuiteModels {
  if (options.record !== undefined && options.replay !== undefined) {
    throw new InvalidArgumentError({
      argument: 'options',
      value: { record: options.record, replay: options.replay },
      message: 'record and replay exclude each other: record a session once, then replay it.',
    });
  }
  const adapters = new Map<string, ModelAdapter>();
  const model = (create: () => ModelAdapter, modelOptions: SuiteModelOptions = {}): ModelAdapter => {
    const name = modelOptions.name ?? 'default';
    if (typeof name !== 'string' || !modelName.test(name)) {
      throw new InvalidArgumentError({
        argument: 'name',
        value: name,
        message:
          'must be letters, digits, "-" or "_" (it names the cassette file), e.g. model(create, { name: "judge" }).',
      });
    }
    const known = adapters.get(name);
    if (known !== undefined) return known;
    const adapter = build(create, name, options);
    adapters.set(name, adapter);
    return adapter;
  };
  return { context: { model }, requested: () => [...adapters.keys()] };
}

function build(create: () => ModelAdapter, name: string, options: SuiteModelsOptions): ModelAdapter {
  const redact = options.redact === undefined ? {} : { redact: options.redact };
  if (options.replay !== undefined) {
    const path = cassettePathFor(options.replay, name);
    if (!existsSync(path)) {
      throw new InvalidArgumentError({
        argument: 'replay',
        value: path,
        message: `has no cassette for the model "${name}": record the suite first with --record ${options.replay}.`,
      });
    }
    return new ReplayAdapter({ path, match: matchByRequest, ...redact });
  }
  const adapter = create();
  if (options.record === undefined) return adapter;
  return recordModel(adapter, { path: cassettePathFor(options.record, name), ...redact });
}
