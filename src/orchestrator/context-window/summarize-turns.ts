import { isAbortError } from '../../errors/aborted-error.js';
import { errorCode, errorName } from '../../errors/describe-value.js';
import type { ChatMessage } from '../../model/messages.js';
import { addUsage } from '../../model/usage.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import type { ContextLedger } from './context-ledger.js';
import { emitCompacted } from './emit-compacted.js';
import type { ReductionReason } from './emit-compacted.js';
import { summaryMessage } from './summary-message.js';

/** What the summary call is asked to do. */
const summarizerPrompt =
  'You compress the history of an agent that calls tools. Summarize the conversation below for the agent itself: ' +
  'the task, what it has done, every fact it learned that it may still need (file paths, names, line numbers, values, errors), ' +
  'and what it was about to do. Be specific and terse; at most 400 words. Do not call tools.';
/** The room a summary is expected to take, in tokens, when choosing how much to summarize. */
const summaryAllowance = 700;
/** The most characters of one message quoted to the summarizer. */
const maxQuotedCharacters = 1500;

/** How a summary is asked for. */
export interface SummarizeRequest {
  readonly reason: ReductionReason;
  /** Tokens (before calibration) to take out of what is sent. */
  readonly excess: number;
  /** The estimate before the reduction, for the trace. */
  readonly before: number;
  readonly limit: number;
}

/**
 * The `'summarize'` strategy: one model call with tools off summarizes the oldest turns (with the
 * previous summary, if any) into one user message that replaces them in what is sent. Turns are
 * cut whole, before an assistant or user message, so every call keeps its results; the system
 * prompt, the first user message and the `keepRecent` latest results are never summarized. The
 * call is traced in `context_compacted` and its usage counts towards the run's. Resolves to false
 * (the caller then masks) when there is nothing to summarize or the call fails.
 */
export async function summarizeOldestTurns(
  state: RunState,
  config: RunConfig,
  ledger: ContextLedger,
  request: SummarizeRequest,
): Promise<boolean> {
  const context = state.contextWindow!;
  const window = config.contextWindow!;
  const transcript = state.messages;
  const head = headLength(transcript);
  const previous = context.summary;
  const from = previous?.end ?? head;
  const keep = request.reason === 'overflow' ? 0 : window.keepRecent;
  const order = ledger.toolOrder;
  // The first kept result's assistant message bounds the cut.
  const keptResult = order.length - keep;
  let cap = keptResult < order.length ? ledger.toolIndices[Math.max(0, keptResult)]! : transcript.length - 1;
  while (cap > 0 && transcript[cap]!.role === 'tool') cap--;
  let end = from;
  let removed = 0;
  for (let index = from; index < cap; index++) {
    removed += ledger.tokens[index]!;
    const next = index + 1;
    if (transcript[next]?.role !== 'tool') end = next;
    if (request.reason === 'high_water' && removed >= request.excess + summaryAllowance && end === next)
      break;
  }
  if (end <= from) return false;
  const input: ChatMessage[] = [
    { role: 'system', content: summarizerPrompt },
    { role: 'user', content: render(previous?.content, transcript.slice(from, end)) },
  ];
  const started = config.now();
  const signal = state.signal;
  let content: string;
  try {
    const pending = config.adapter.call(input, [], signal === undefined ? {} : { signal });
    const response = await (signal === undefined ? pending : raceAbort(pending, signal));
    state.usage = addUsage(state.usage, response.usage);
    content = typeof response.content === 'string' ? response.content.trim() : '';
    if (content === '') throw new Error('the model answered with no summary');
    const summaryTokens = (text: string | undefined): number =>
      text === undefined ? 0 : ledger.countMessages([summaryMessage(text)]);
    const rawAfter =
      request.before / context.calibration -
      ledger.rangeTokens(from, end) -
      summaryTokens(previous?.content) +
      summaryTokens(content);
    context.summary = { content, start: head, end };
    emitCompacted(
      state,
      'summarize',
      request.reason,
      request.before,
      rawAfter,
      request.limit,
      [],
      end - head,
      {
        summary: content,
        ...(response.usage === undefined ? {} : { usage: response.usage }),
        durationMs: config.now() - started,
      },
    );
  } catch (error) {
    if (isAbortError(error, signal)) throw error;
    state.trace.emit('warning', {
      code: 'summarize_failed',
      message: `The summary call failed (${errorName(error)}${errorCode(error) === undefined ? '' : ` ${errorCode(error)}`}); older tool results are masked instead.`,
    });
    return false;
  }
  return true;
}

/** The leading system messages and the first user message: never summarized. */
function headLength(transcript: readonly ChatMessage[]): number {
  let index = 0;
  while (transcript[index]?.role === 'system') index++;
  if (transcript[index]?.role === 'user') index++;
  return index;
}

/** The turns as the summarizer reads them, each message cut to a readable length. */
function render(previous: string | undefined, messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  if (previous !== undefined) lines.push(`Summary so far:\n${previous}\n`, 'What happened next:');
  for (const message of messages) {
    if (message.role === 'assistant') {
      if (message.content) lines.push(`assistant: ${quote(message.content)}`);
      for (const toolCall of message.tool_calls ?? []) {
        lines.push(`assistant called ${toolCall.function.name}(${quote(toolCall.function.arguments)})`);
      }
    } else if (message.role === 'tool') {
      lines.push(`tool result: ${quote(message.content)}`);
    } else {
      lines.push(`${message.role}: ${quote(message.content)}`);
    }
  }
  return lines.join('\n');
}

function quote(text: string): string {
  return text.length > maxQuotedCharacters
    ? `${text.slice(0, maxQuotedCharacters)} […${text.length - maxQuotedCharacters} more characters]`
    : text;
}
