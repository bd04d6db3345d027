import type { GuardrailKind } from '../../tracing/trace-events.js';
import type { RunState } from '../run-state.js';
import type { AnyGuardrail } from './judge-guardrail.js';
import { judgeGuardrail, recordTrip, traceJudgement } from './judge-guardrail.js';

/**
 * The input or output guardrails of one check, run at once. The first tripwire decides: it is
 * recorded on the run, the others' `signal` aborts, and their verdicts are dropped (no event). The
 * group's signal also follows the run's. Call `close` when the check is over.
 */
export class GuardrailGroup {
  readonly #state: RunState;
  readonly #kind: GuardrailKind;
  readonly #controller = new AbortController();
  readonly #stopWatching: (() => void) | undefined;
  /** Resolves the checks still waiting, once one trips. */
  readonly #waiting = new Set<(tripped: boolean) => void>();
  #tripped = false;

  constructor(state: RunState, kind: GuardrailKind) {
    this.#state = state;
    this.#kind = kind;
    const runSignal = state.signal;
    if (runSignal !== undefined) {
      const onAbort = (): void => this.#controller.abort(runSignal.reason);
      if (runSignal.aborted) onAbort();
      else runSignal.addEventListener('abort', onAbort, { once: true });
      this.#stopWatching = () => runSignal.removeEventListener('abort', onAbort);
    }
  }

  /** What each guardrail of the group is handed as its `signal`. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Calls `listener` when a guardrail of the group trips (at once when one has). */
  onTrip(listener: () => void): void {
    if (this.#tripped) listener();
    else this.#waiting.add(() => listener());
  }

  /**
   * Runs `guardrails` at once on `info`: resolves `true` as soon as one of the group trips (this
   * check's or another's), `false` once all passed. Never rejects; a run aborted meanwhile is the
   * caller's to notice (its verdicts are dropped).
   */
  check<Info>(guardrails: readonly AnyGuardrail<Info>[], info: Info): Promise<boolean> {
    if (this.#tripped) return Promise.resolve(true);
    if (guardrails.length === 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      this.#waiting.add(resolve);
      let left = guardrails.length;
      for (const guardrail of guardrails) {
        void judgeGuardrail(guardrail, this.#kind, info, this.#state.now).then((timed) => {
          if (this.#tripped || this.#state.signal?.aborted === true) return;
          traceJudgement(this.#state, guardrail.name, this.#kind, timed);
          const { judgement } = timed;
          if (judgement.type === 'tripwire') {
            recordTrip(this.#state, guardrail.name, this.#kind, judgement);
            this.#trip();
          } else if (--left === 0) {
            this.#waiting.delete(resolve);
            resolve(false);
          }
        });
      }
    });
  }

  /** Stops following the run's signal. */
  close(): void {
    this.#stopWatching?.();
  }

  #trip(): void {
    this.#tripped = true;
    this.#controller.abort(new Error('Another guardrail tripped; this verdict is not used.'));
    for (const resolve of this.#waiting) resolve(true);
    this.#waiting.clear();
  }
}
