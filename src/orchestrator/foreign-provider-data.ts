import type { ChatMessage, ProviderData } from '../model/messages.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { TraceDispatcher } from '../tracing/trace-dispatcher.js';

/**
 * Warns, once per key, about provider data in the transcript that the run's adapter will not send
 * back: reasoning, signatures or fields another API returned (a run started on DeepSeek resumed on
 * OpenAI, a transcript handed from another agent). The adapter leaves such data out, as each
 * provider requires; the transcript keeps it, so a run resumed on the first API still has it.
 */
export function warnForeignProviderData(
  messages: readonly ChatMessage[],
  adapter: ModelAdapter,
  trace: TraceDispatcher,
): void {
  const own = adapter.providerDataKey;
  const counts = new Map<string, number>();
  const count = (data: ProviderData | undefined): void => {
    if (data === undefined) return;
    for (const key of Object.keys(data)) if (key !== own) counts.set(key, (counts.get(key) ?? 0) + 1);
  };
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    count(message.providerData);
    for (const part of message.reasoning ?? []) count(part.providerData);
    for (const toolCall of message.tool_calls ?? []) count(toolCall.providerData);
  }
  const adapterName = adapter.provider ?? 'unknown';
  for (const [key, found] of counts) {
    trace.emit('warning', {
      code: 'provider_data_dropped',
      message: `The transcript holds data that "${key}" needs back (${found} reasoning ${found === 1 ? 'part or field' : 'parts or fields'}); the adapter "${adapterName}" ${own === undefined ? 'keeps no provider data' : `reads only "${own}"`}, so it is not sent: another API cannot verify it.`,
    });
  }
}
