import type { GuardrailKind, ToolCallReference } from '../tracing/trace-events.js';
import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link GuardrailTrippedError}. */
export interface GuardrailTrippedErrorOptions<Result> {
  /** The name of the guardrail that tripped. */
  readonly guardrail: string;
  readonly kind: GuardrailKind;
  /** The tripwire's message (a thrown error's description, when the check threw). */
  readonly tripwireMessage: string;
  /** The tripwire's `info` (the thrown error, when the check threw). */
  readonly info?: unknown;
  /** The call a tool guardrail judged. */
  readonly toolCall?: ToolCallReference;
  /** What the check threw, when it threw. */
  readonly cause?: unknown;
  /** Everything the run produced before it stopped. */
  readonly result: Result;
}

/**
 * A guardrail tripped and ended the run (`stopReason: 'guardrail_tripped'`). Which guardrail, where
 * (`kind`), its message and `info` are on the error; the partial result, transcript and traces
 * included, is on `result`. A check that threw trips with the error as `info` and `cause`.
 */
export class GuardrailTrippedError<Result = unknown> extends ToolOrchestratorError {
  readonly guardrail: string;
  readonly kind: GuardrailKind;
  readonly tripwireMessage: string;
  readonly info: unknown;
  readonly toolCall: ToolCallReference | undefined;
  readonly result: Result;

  constructor(options: GuardrailTrippedErrorOptions<Result>) {
    const call =
      options.toolCall === undefined ? '' : ` on call ${options.toolCall.id} of ${options.toolCall.name}`;
    super('guardrail_tripped', {
      message: `Guardrail "${options.guardrail}" (${options.kind}) tripped${call}: ${options.tripwireMessage} The run ended with stopReason 'guardrail_tripped'. Catch this error to answer the user: what the guardrail reported is on error.info, the partial result on error.result.`,
      ...(options.cause === undefined ? {} : { cause: options.cause }),
    });
    this.guardrail = options.guardrail;
    this.kind = options.kind;
    this.tripwireMessage = options.tripwireMessage;
    this.info = options.info;
    this.toolCall = options.toolCall;
    this.result = options.result;
  }
}
