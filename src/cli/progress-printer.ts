import type { TraceEvent } from '../tracing/trace-events.js';

/** Options of {@link createProgressPrinter}. */
export interface ProgressPrinterOptions {
  readonly write: (text: string) => void;
  /** Clock for the final line's elapsed time. @default Date.now */
  readonly now?: () => number;
}

const dim = (text: string): string => `\u001b[2m${text}\u001b[22m`;

/**
 * Turns trace events into live progress lines: each turn, each tool call with its arguments,
 * duration and a one-line result summary, streamed reasoning, and a final summary line.
 */
export function createProgressPrinter(options: ProgressPrinterOptions): (event: TraceEvent) => void {
  const { write } = options;
  const now = options.now ?? Date.now;
  const started = now();
  const pendingArguments = new Map<string, string>();
  let reasoningOpen = false;
  const closeReasoning = (): void => {
    if (reasoningOpen) write('\n');
    reasoningOpen = false;
  };
  return (event) => {
    switch (event.type) {
      case 'reasoning_delta':
        if (!reasoningOpen) write(dim('  thinking: '));
        reasoningOpen = true;
        write(dim(event.data.delta.replace(/\s+/g, ' ')));
        break;
      case 'llm_call':
        closeReasoning();
        write(
          `turn ${event.turn + 1}: model answered in ${formatMs(event.data.durationMs)}${event.data.usage ? `, ${event.data.usage.totalTokens} tokens` : ''}\n`,
        );
        break;
      case 'tool_call':
        pendingArguments.set(event.data.toolCall.id, event.data.toolCall.function.arguments);
        break;
      case 'tool_result': {
        const args = oneLine(pendingArguments.get(event.data.toolCallId) ?? '', 80);
        const summary =
          event.data.error === undefined
            ? summarize(event.data.content)
            : `error: ${oneLine(event.data.error, 100)}`;
        write(`  ${event.data.name}(${args}) ${formatMs(event.data.durationMs)} -> ${summary}\n`);
        break;
      }
      case 'warning':
        closeReasoning();
        write(`  warning: ${event.data.message}\n`);
        break;
      case 'run_end':
        closeReasoning();
        if (event.parentRunId === undefined || event.data.turns > 0) {
          write(
            `done: ${event.data.turns} turns, ${event.data.usage.totalTokens} tokens, ${formatMs(now() - started)} (${event.data.stopReason})\n`,
          );
        }
        break;
      default:
        break;
    }
  };
}

function summarize(content: string): string {
  const lines = content.split('\n').filter((line) => line.trim() !== '');
  const first = oneLine(lines[0] ?? '(empty)', 80);
  return lines.length > 1 ? `${first} (+${lines.length - 1} lines)` : first;
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function formatMs(milliseconds: number): string {
  return milliseconds >= 1000 ? `${(milliseconds / 1000).toFixed(1)}s` : `${Math.round(milliseconds)}ms`;
}
