import { describeValue } from './describe-value.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link ScriptExhaustedError}. */
export interface ScriptExhaustedErrorOptions {
  /** How many responses the script had. */
  readonly scriptLength: number;
  /** The last message the adapter received, to show where the run was. */
  readonly lastMessage: unknown;
}

/** A `ScriptedAdapter` was called more times than its script has responses. */
export class ScriptExhaustedError extends ToolOrchestratorError {
  readonly scriptLength: number;

  constructor(options: ScriptExhaustedErrorOptions) {
    const last = options.lastMessage === undefined ? 'nothing' : describeValue(options.lastMessage, 300);
    super('script_exhausted', {
      message: `ScriptedAdapter was called ${options.scriptLength + 1} times but its script has only ${options.scriptLength} responses. Add a response to the script (the last message it received was ${last}).`,
    });
    this.scriptLength = options.scriptLength;
  }
}
