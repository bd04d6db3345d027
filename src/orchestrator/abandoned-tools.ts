import type { ToolCall } from '../model/messages.js';
import type { RunState } from './run-state.js';

/**
 * The tool calls of one batch that were answered (aborted, timed out) while their `execute` was
 * still running. After an abort the run waits for them, so it does not settle while a tool is
 * still causing side effects; past the grace period it settles anyway and says which are left.
 */
export class AbandonedTools {
  readonly #running = new Map<ToolCall, Promise<void>>();

  /** The runner's `onAbandoned` hook. */
  readonly track = (toolCall: ToolCall, settled: Promise<void>): void => {
    this.#running.set(toolCall, settled);
    void settled.then(() => this.#running.delete(toolCall));
  };

  /** Waits up to `graceMs` for every abandoned call; then traces a `tools_still_running` warning for the rest. */
  async settle(state: RunState, graceMs: number): Promise<void> {
    if (this.#running.size === 0) return;
    if (graceMs > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all(this.#running.values()),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
      // The deletions run one microtask after each call settles.
      await Promise.resolve();
    }
    if (this.#running.size === 0) return;
    const toolCalls = [...this.#running.keys()].map((toolCall) => ({
      id: toolCall.id,
      name: toolCall.function.name,
    }));
    state.trace.emit('warning', {
      code: 'tools_still_running',
      message: `The run was aborted and these tool calls were still running ${graceMs} ms later (abortGraceMs): ${toolCalls
        .map((toolCall) => `${toolCall.name} (${toolCall.id})`)
        .join(', ')}. They were answered as aborted; what they do from now on is not awaited.`,
      toolCalls,
    });
  }
}
