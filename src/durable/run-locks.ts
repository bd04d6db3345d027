/** Runs tasks one after another per run id, so one store instance never interleaves two writes of a run. */
export class RunLocks {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every task queued before for `runId`; a failed task does not block the next. */
  run<Result>(runId: string, task: () => Promise<Result>): Promise<Result> {
    const previous = this.#tails.get(runId) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(runId, tail);
    void tail.then(() => {
      if (this.#tails.get(runId) === tail) this.#tails.delete(runId);
    });
    return result;
  }
}
