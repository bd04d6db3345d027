import { describeThrown, describeValue } from '../../errors/describe-value.js';
import type { ToolCall } from '../../model/messages.js';
import type { GuardrailKind } from '../../tracing/trace-events.js';
import type { RunState } from '../run-state.js';
import type { ToolGuardrailVerdict } from './guardrail-options.js';

/** A verdict as the loop acts on it: a thrown check or a malformed verdict is a tripwire. */
export type Judgement =
  | { readonly type: 'pass' }
  | { readonly type: 'replace'; readonly result: string }
  | {
      readonly type: 'tripwire';
      readonly message: string;
      readonly info: unknown;
      /** What the check threw, when it threw. */
      readonly thrown?: { readonly error: unknown };
    };

/** One guardrail, whatever its kind: what `judgeGuardrail` calls. */
export interface AnyGuardrail<Info> {
  readonly name: string;
  check(info: Info): ToolGuardrailVerdict | Promise<ToolGuardrailVerdict>;
}

/** A judgement and how long the check took. */
export interface TimedJudgement {
  readonly judgement: Judgement;
  readonly durationMs: number;
}

/**
 * Calls one guardrail's `check` and reads its verdict. Never throws: a check that throws or
 * rejects trips with the error; a verdict the kind does not allow trips with a message saying so.
 */
export async function judgeGuardrail<Info>(
  guardrail: AnyGuardrail<Info>,
  kind: GuardrailKind,
  info: Info,
  now: () => number,
): Promise<TimedJudgement> {
  const started = now();
  let judgement: Judgement;
  try {
    judgement = readVerdict(await guardrail.check(info), guardrail.name, kind);
  } catch (error) {
    judgement = {
      type: 'tripwire',
      message: `The guardrail's check threw: ${describeThrown(error)}`,
      info: error,
      thrown: { error },
    };
  }
  return { judgement, durationMs: now() - started };
}

/** Emits the `guardrail` event of one finished check. */
export function traceJudgement(
  state: RunState,
  name: string,
  kind: GuardrailKind,
  timed: TimedJudgement,
  toolCall?: ToolCall,
): void {
  const { judgement } = timed;
  state.trace.emit('guardrail', {
    name,
    kind,
    verdict: judgement.type,
    ...(judgement.type === 'tripwire' ? { message: judgement.message } : {}),
    ...(toolCall === undefined ? {} : { toolCall: { id: toolCall.id, name: toolCall.function.name } }),
    durationMs: timed.durationMs,
  });
}

function readVerdict(verdict: unknown, name: string, kind: GuardrailKind): Judgement {
  const type = (verdict as { type?: unknown } | null)?.type;
  if (type === 'pass') return { type: 'pass' };
  if (type === 'tripwire') {
    const { message, info } = verdict as { message?: unknown; info?: unknown };
    return {
      type: 'tripwire',
      message: typeof message === 'string' ? message : describeValue(message),
      info,
    };
  }
  const tool = kind === 'tool_input' || kind === 'tool_output';
  if (type === 'replace' && tool) {
    const result = (verdict as { result?: unknown }).result;
    if (typeof result === 'string') return { type: 'replace', result };
  }
  return {
    type: 'tripwire',
    message: `Guardrail "${name}" returned ${describeValue(verdict)}, not a verdict; return { type: 'pass' }, { type: 'tripwire', message }${
      tool ? ", or { type: 'replace', result } with a string result" : ''
    }.`,
    info: verdict,
  };
}

/** Records the tripwire that ends the run; the first one stands. */
export function recordTrip(
  state: RunState,
  guardrail: string,
  kind: GuardrailKind,
  judgement: Judgement & { readonly type: 'tripwire' },
  toolCall?: ToolCall,
): void {
  state.guardrailTrip ??= {
    guardrail,
    kind,
    message: judgement.message,
    info: judgement.info,
    ...(judgement.thrown === undefined ? {} : { thrown: judgement.thrown }),
    ...(toolCall === undefined ? {} : { toolCall: { id: toolCall.id, name: toolCall.function.name } }),
  };
}
