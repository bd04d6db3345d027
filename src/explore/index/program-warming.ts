import type { WarmStep } from './script-program.js';

/** Options of {@link ProgramWarming}. */
export interface ProgramWarmingOptions {
  /** One slice of warming (`ScriptProgram.warmStep`, then parsing the index's own view of the files). */
  readonly step: () => WarmStep | Promise<WarmStep>;
  /** Whether the end of a question starts warming in the background. */
  readonly background: boolean;
}

/**
 * Runs a code index's program warming a slice at a time: on demand (`run`), or in the background
 * once no question is under way, pausing while one is, so a question waits at most for the slice
 * that was running when it came. Background slices run on unreferenced timers: warming never
 * keeps a process alive.
 */
export class ProgramWarming {
  readonly #step: () => WarmStep | Promise<WarmStep>;
  readonly #background: boolean;
  #questionsUnderWay = 0;
  #running: Promise<void> | undefined;

  constructor(options: ProgramWarmingOptions) {
    this.#step = options.step;
    this.#background = options.background;
  }

  /** Runs a question with background warming held off; when no other question is under way, warming goes on. */
  async question<T>(work: () => Promise<T>): Promise<T> {
    this.#questionsUnderWay += 1;
    try {
      return await work();
    } finally {
      this.#questionsUnderWay -= 1;
      if (this.#questionsUnderWay === 0) this.#startInBackground();
    }
  }

  /** Warms slice after slice, yielding between them, until a slice has nothing left to do. */
  run(signal?: AbortSignal): Promise<void> {
    return this.#slices(signal, false);
  }

  async #slices(signal: AbortSignal | undefined, background: boolean): Promise<void> {
    for (;;) {
      do await pause(background);
      while (background && this.#questionsUnderWay > 0);
      signal?.throwIfAborted();
      const step = await this.#step();
      // A step that parsed and added nothing: done, or what is left cannot be warmed (stop rather than spin).
      if (step.parsed === 0 && step.added === 0) return;
    }
  }

  #startInBackground(): void {
    if (!this.#background || this.#running !== undefined) return;
    this.#running = this.#slices(undefined, true)
      // A failed slice (a file gone mid-build) leaves the program to questions; the next one warms again.
      .catch(() => undefined)
      .finally(() => (this.#running = undefined));
  }
}

/** Lets other work run: on an unreferenced timer in the background, so warming never keeps a process alive. */
function pause(background: boolean): Promise<void> {
  return new Promise((resolve) => {
    if (background) setTimeout(resolve, 0).unref();
    else setImmediate(resolve);
  });
}
