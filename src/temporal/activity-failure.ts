import { ApplicationFailure } from '@temporalio/common';
import { ToolOrchestratorError } from '../errors/tool-orchestrator-error.js';

/** What Temporal needs of a `ModelProviderError`: read structurally, so any copy of the package counts. */
interface ProviderFailure {
  readonly retryable: boolean;
  readonly status?: number | undefined;
  readonly provider?: string | undefined;
  readonly requestId?: string | undefined;
  readonly retryAfterMs?: number | undefined;
}

const isProviderFailure = (error: ToolOrchestratorError): error is ToolOrchestratorError & ProviderFailure =>
  typeof (error as Partial<ProviderFailure>).retryable === 'boolean';

/**
 * What an activity throws for `error`: the cancellation itself when the activity was cancelled;
 * for a provider error, an `ApplicationFailure` of the error's name that is retryable when the
 * provider said so (waiting what the provider asked for); for any other error of this library (a bad
 * argument, an answer that misses its schema), a non-retryable one, since the same input fails
 * again; anything else as it is (Temporal retries it).
 */
export function activityFailureOf(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  if (error instanceof ApplicationFailure || !ToolOrchestratorError.isInstance(error)) return error;
  const provider = isProviderFailure(error) ? error : undefined;
  return ApplicationFailure.create({
    message: error.message,
    type: error.name,
    nonRetryable: provider === undefined ? true : !provider.retryable,
    ...(provider?.retryAfterMs === undefined ? {} : { nextRetryDelay: provider.retryAfterMs }),
    details: [
      {
        code: error.code,
        ...(provider?.status === undefined ? {} : { status: provider.status }),
        ...(provider?.provider === undefined ? {} : { provider: provider.provider }),
        ...(provider?.requestId === undefined ? {} : { requestId: provider.requestId }),
      },
    ],
    cause: error,
  });
}
