import type { JsonValue } from '../../durable/run-state.js';
import type { JsonObject } from '../../model/messages.js';
import { GuardrailTrippedError } from '../../errors/guardrail-tripped-error.js';
import type { GuardrailKind } from '../../tracing/trace-events.js';

/** The tripwire that ends a run: what `GuardrailTrippedError` carries. */
export interface GuardrailTrip {
  readonly guardrail: string;
  readonly kind: GuardrailKind;
  readonly message: string;
  readonly info: unknown;
  /** What the check threw, when it threw. */
  readonly thrown?: { readonly error: unknown };
  /** The call a tool guardrail judged. */
  readonly toolCall?: { readonly id: string; readonly name: string };
}

/** The error `run()` rejects with for a run that ended with `'guardrail_tripped'`. */
export function trippedError<Result>(
  trip: GuardrailTrip | undefined,
  result: Result,
): GuardrailTrippedError<Result> {
  return new GuardrailTrippedError({
    guardrail: trip?.guardrail ?? '(unknown)',
    kind: trip?.kind ?? 'input',
    tripwireMessage: trip?.message ?? 'The run had ended with a tripwire before it was resumed.',
    info: trip?.info,
    ...(trip?.toolCall === undefined ? {} : { toolCall: trip.toolCall }),
    ...(trip?.thrown === undefined ? {} : { cause: trip.thrown.error }),
    result,
  });
}

/**
 * The trip as a checkpoint saves it (`strategyState.guardrail`), so a run resumed after a crash
 * still ends with it: `info` when it is JSON, and no thrown error.
 */
export function savedTrip(trip: GuardrailTrip): JsonValue {
  const saved: { [field: string]: JsonValue } = {
    guardrail: trip.guardrail,
    kind: trip.kind,
    message: trip.message,
  };
  const info = asJson(trip.info);
  if (info !== undefined) saved['info'] = info;
  if (trip.toolCall !== undefined) saved['toolCall'] = { ...trip.toolCall };
  return saved;
}

/** The trip a checkpoint saved, if any (see {@link savedTrip}). */
export function restoredTrip(saved: JsonValue | undefined): GuardrailTrip | undefined {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return undefined;
  const { guardrail, kind, message, info, toolCall } = saved as Partial<Record<string, JsonValue>>;
  return {
    guardrail: typeof guardrail === 'string' ? guardrail : '(unknown)',
    kind: kind === 'output' || kind === 'tool_input' || kind === 'tool_output' ? kind : 'input',
    message: typeof message === 'string' ? message : '',
    info,
    ...(typeof toolCall === 'object' && toolCall !== null && !Array.isArray(toolCall)
      ? {
          toolCall: {
            id: String((toolCall as JsonObject)['id']),
            name: String((toolCall as JsonObject)['name']),
          },
        }
      : {}),
  };
}

function asJson(value: unknown): JsonValue | undefined {
  if (value === undefined) return undefined;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined; // Not JSON (a cycle, a BigInt): the error keeps it while this process runs.
  }
}
