import { isAbortError } from '../../errors/aborted-error.js';
import { errorCode, errorName } from '../../errors/describe-value.js';
import { contentAsText } from '../../model/content-parts.js';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { Usage } from '../../model/usage.js';
import type { TraceDispatcher } from '../../tracing/trace-dispatcher.js';
import { raceAbort } from '../race-abort.js';
import type { ContextSummary, ReductionReason } from './context-window-state.js';

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
export interface SummarizeOptions {
  readonly transcript: readonly ChatMessage[];
  /** The summary in force, which the new one replaces (and is written from). */
  readonly previous: ContextSummary | undefined;
  readonly reason: ReductionReason;
  /** The latest tool results never summarized (none after a refusal). */
  readonly keepRecent: number;
  /** Tokens (before calibration) to take out of what is sent. */
  readonly excess: number;
  /** The estimated tokens of a transcript message. */
  readonly count: (message: ChatMessage) => number;
  readonly adapter: ModelAdapter;
  readonly signal: AbortSignal | undefined;
  readonly trace: TraceDispatcher;
  readonly now: () => number;
  /** Counts the summary call's usage towards the run's. */
  readonly countUsage: (usage: Usage) => void;
}

/** A summary the model wrote, and what its call cost. */
export interface WrittenSummary {
  readonly summary: ContextSummary;
  readonly usage: Usage | undefined;
  readonly durationMs: number;
}

/**
 * The `'summarize'` strategy: one model call with tools off summarizes the oldest turns (with the
 * previous summary, if any) into one user message that replaces them in what is sent. Turns are
 * cut whole, before an assistant or user message, so every call keeps its results; the system
 * prompt, the first user message and the `keepRecent` latest results are never summarized. The
 * call's usage counts towards the run's. Resolves to `undefined` (the caller then masks) when
 * there is nothing to summarize, or when the call fails (traced as a `summarize_failed` warning).
 *
 * @throws {AbortedError} when the signal aborts the call.
 */
export async function summarizeOldestTurns(options: SummarizeOptions): Promise<WrittenSummary | undefined> {
  const { transcript, previous, reason, signal } = options;
  const head = headLength(transcript);
  const from = previous?.end ?? head;
  const cap = summaryCap(transcript, reason === 'overflow' ? 0 : options.keepRecent);
  let end = from;
  let removed = 0;
  for (let index = from; index < cap; index++) {
    removed += options.count(transcript[index]!);
    const next = index + 1;
    if (transcript[next]?.role !== 'tool') end = next;
    if (reason === 'high_water' && removed >= options.excess + summaryAllowance && end === next) break;
  }
  if (end <= from) return undefined;
  const input: ChatMessage[] = [
    { role: 'system', content: summarizerPrompt },
    { role: 'user', content: render(previous?.content, transcript.slice(from, end)) },
  ];
  const started = options.now();
  try {
    const pending = options.adapter.call(input, [], signal === undefined ? {} : { signal });
    const response = await (signal === undefined ? pending : raceAbort(pending, signal));
    if (response.usage !== undefined) options.countUsage(response.usage);
    const content = typeof response.content === 'string' ? response.content.trim() : '';
    if (content === '') throw new Error('the model answered with no summary');
    return {
      summary: { content, start: head, end },
      usage: response.usage,
      durationMs: options.now() - started,
    };
  } catch (error) {
    if (isAbortError(error, signal)) throw error;
    options.trace.emit('warning', {
      code: 'summarize_failed',
      message: `The summary call failed (${errorName(error)}${errorCode(error) === undefined ? '' : ` ${errorCode(error)}`}); older tool results are masked instead.`,
    });
    return undefined;
  }
}

/**
 * Where a summary must stop: the assistant message of the first of the `keep` latest tool results
 * (the last message when none is kept); 0 when the transcript has no results to keep.
 */
function summaryCap(transcript: readonly ChatMessage[], keep: number): number {
  let cap = transcript.length - 1;
  if (keep > 0) {
    let seen = 0;
    let firstKept = -1;
    for (let index = transcript.length - 1; index >= 0 && seen < keep; index--) {
      if (transcript[index]!.role !== 'tool') continue;
      seen++;
      firstKept = index;
    }
    if (firstKept < 0) return 0;
    cap = firstKept;
  }
  while (cap > 0 && transcript[cap]!.role === 'tool') cap--;
  return cap;
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
      lines.push(`tool result: ${quote(contentAsText(message.content))}`);
    } else {
      lines.push(`${message.role}: ${quote(contentAsText(message.content))}`);
    }
  }
  return lines.join('\n');
}

function quote(text: string): string {
  return text.length > maxQuotedCharacters
    ? `${text.slice(0, maxQuotedCharacters)} […${text.length - maxQuotedCharacters} more characters]`
    : text;
}
