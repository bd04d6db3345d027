import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link LoopDetectedError}. */
export interface LoopDetectedErrorOptions<Result> {
  /** Everything the run produced before it stopped. */
  readonly result: Result;
}

/**
 * The loop guard ended the run (the model kept repeating the same call, or with `action: 'stop'`
 * a tool kept failing) and `onCutShort` is `'throw'`. The partial result is on `result`; the
 * `warning` events with codes `repeated_tool_call` and `loop_detected` in its traces say what repeated.
 */
export class LoopDetectedError<Result = unknown> extends ToolOrchestratorError {
  readonly result: Result;

  constructor(options: LoopDetectedErrorOptions<Result>) {
    super('loop_detected', {
      message:
        "The loop guard ended the run: the model kept repeating itself (see the run's loop_detected warning). Give it a way out (a better tool result, a prompt), loosen loopGuard, or set onCutShort to 'return' or 'final_answer'; the partial result is on error.result.",
    });
    this.result = options.result;
  }
}
