/**
 * Answers given on one generation of the repository's files, by question: the same file versions
 * give the same answer. Holds at most `maxAnswers` (then starts over); a new generation starts empty.
 */
export class AnswerCache<T> {
  readonly #answers = new Map<string, T>();
  readonly #maxAnswers: number;
  #generation = -1;

  constructor(maxAnswers: number) {
    this.#maxAnswers = maxAnswers;
  }

  /** Drops every answer unless they were given on `generation`. */
  ofGeneration(generation: number): void {
    if (generation === this.#generation) return;
    this.#answers.clear();
    this.#generation = generation;
  }

  get(question: string): T | undefined {
    return this.#answers.get(question);
  }

  set(question: string, answer: T): void {
    if (this.#answers.size >= this.#maxAnswers) this.#answers.clear();
    this.#answers.set(question, answer);
  }

  /** Drops every answer: something besides the files' versions changed (module resolution). */
  clear(): void {
    this.#answers.clear();
  }
}
