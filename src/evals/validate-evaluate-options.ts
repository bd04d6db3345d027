import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

/** Checks `evaluate()`'s options and returns each case's id (its own, or its index). */
export function validateEvaluateOptions(options: {
  readonly dataset?: unknown;
  readonly task?: unknown;
  readonly scorers?: unknown;
  readonly concurrency?: unknown;
}): string[] {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError({
      argument: 'options',
      value: options,
      message: 'pass { dataset, task, scorers }',
    });
  }
  const { dataset, task, scorers, concurrency } = options;
  if (!Array.isArray(dataset)) {
    throw new InvalidArgumentError({
      argument: 'dataset',
      value: dataset,
      message: 'must be an array of cases ({ input, expected?, id?, tags? })',
    });
  }
  if (typeof task !== 'function') {
    throw new InvalidArgumentError({
      argument: 'task',
      value: task,
      message: 'must be a function (input, { signal, case, index }) that runs the agent',
    });
  }
  if (!Array.isArray(scorers)) {
    throw new InvalidArgumentError({
      argument: 'scorers',
      value: scorers,
      message: 'must be an array of scorers ({ name, score })',
    });
  }
  if (
    concurrency !== undefined &&
    !(typeof concurrency === 'number' && Number.isInteger(concurrency) && concurrency > 0)
  ) {
    throw new InvalidArgumentError({
      argument: 'concurrency',
      value: concurrency,
      message: 'must be a positive integer',
    });
  }
  const scorerNames = new Set<string>();
  scorers.forEach((scorer: unknown, index) => {
    const { name, score, threshold } = (
      typeof scorer === 'object' && scorer !== null ? scorer : {}
    ) as Record<string, unknown>;
    if (typeof name !== 'string' || name === '' || typeof score !== 'function') {
      throw new InvalidArgumentError({
        argument: `scorers[${index}]`,
        value: scorer,
        message: 'must be a scorer: { name: string, score(scoredCase) }',
      });
    }
    if (scorerNames.has(name)) {
      throw new InvalidArgumentError({
        argument: `scorers[${index}].name`,
        value: name,
        message:
          'another scorer has this name; give each a name of its own (the name option of the built-ins)',
      });
    }
    scorerNames.add(name);
    if (threshold !== undefined && !(typeof threshold === 'number' && threshold >= 0 && threshold <= 1)) {
      throw new InvalidArgumentError({
        argument: `scorers[${index}].threshold`,
        value: threshold,
        message: 'must be a number from 0 to 1',
      });
    }
  });
  const ids = new Set<string>();
  return dataset.map((evalCase: unknown, index) => {
    if (typeof evalCase !== 'object' || evalCase === null || !('input' in evalCase)) {
      throw new InvalidArgumentError({
        argument: `dataset[${index}]`,
        value: evalCase,
        message: 'must be a case: { input, expected?, id?, tags? }',
      });
    }
    const { id: ownId, tags } = evalCase as { id?: unknown; tags?: unknown };
    if (ownId !== undefined && (typeof ownId !== 'string' || ownId === '')) {
      throw new InvalidArgumentError({
        argument: `dataset[${index}].id`,
        value: ownId,
        message: 'must be a non-empty string',
      });
    }
    if (tags !== undefined && !(Array.isArray(tags) && tags.every((tag) => typeof tag === 'string'))) {
      throw new InvalidArgumentError({
        argument: `dataset[${index}].tags`,
        value: tags,
        message: 'must be an array of strings',
      });
    }
    const id = ownId ?? String(index);
    if (ids.has(id)) {
      throw new InvalidArgumentError({
        argument: `dataset[${index}].id`,
        value: id,
        message: 'another case has this id; give each case an id of its own',
      });
    }
    ids.add(id);
    return id;
  });
}
