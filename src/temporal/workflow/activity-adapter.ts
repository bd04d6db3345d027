import type { ModelAdapter } from '../../model/model-adapter.js';
import type { AdapterDescription, TemporalActivities } from '../activity-types.js';

/**
 * A `ModelAdapter` for a workflow: each call is a `callModel` activity on the worker's adapter of
 * that name, so the response is recorded in the workflow's history and a replay reads it back
 * instead of calling the model. The description's fields (`model`, `providerDataKey`,
 * `supportsResponseFormat`, ...) are the worker adapter's, from `describeAgent`. The call's
 * `signal` is not sent: cancel the workflow (or a `CancellationScope`) to cancel the activity.
 */
export function createActivityAdapter(
  description: AdapterDescription,
  activities: Pick<TemporalActivities, 'callModel'>,
): ModelAdapter {
  return {
    ...(description.provider === undefined ? {} : { provider: description.provider }),
    ...(description.model === undefined ? {} : { model: description.model }),
    ...(description.contextWindowTokens === undefined
      ? {}
      : { contextWindowTokens: description.contextWindowTokens }),
    ...(description.providerDataKey === undefined ? {} : { providerDataKey: description.providerDataKey }),
    ...(description.supportsResponseFormat === undefined
      ? {}
      : { supportsResponseFormat: description.supportsResponseFormat }),
    call: (messages, tools, options = {}) =>
      activities.callModel({
        adapter: description.name,
        messages,
        tools,
        ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
        ...(options.responseFormat === undefined ? {} : { responseFormat: options.responseFormat }),
      }),
  };
}
