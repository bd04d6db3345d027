/**
 * What the HTML viewer shows, built from trace events by `buildTraceModel` and embedded in the page
 * as JSON. Times are milliseconds from the trace's first event.
 */
export interface TraceModel {
  readonly title: string;
  /** Epoch milliseconds of the first event; `null` for an empty trace. */
  readonly startedAt: number | null;
  readonly totals: TraceTotals;
  /** Top-level runs, in start order; subagent runs hang under the tool call that spawned them. */
  readonly runs: readonly RunView[];
}

export interface TraceTotals {
  readonly events: number;
  readonly runs: number;
  /** Model calls made, over every run. */
  readonly turns: number;
  readonly toolCalls: number;
  readonly toolErrors: number;
  readonly warnings: number;
  readonly errors: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly reasoningTokens: number;
  readonly cachedTokens: number;
  /** US dollars over the priced calls; `null` when no call could be priced. */
  readonly costUsd: number | null;
  /** Model calls whose model has no price. */
  readonly unpricedCalls: number;
  /** From the first event to the last. */
  readonly wallMs: number;
}

export interface RunView {
  readonly runId: string;
  readonly parentRunId: string | null;
  /** The run's first user message, cut short, or its id. */
  readonly label: string;
  readonly startMs: number;
  /** `null` when the trace holds no `run_end` for it. */
  readonly durationMs: number | null;
  readonly stopReason: string | null;
  /** Model calls made. */
  readonly turnCount: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly turns: readonly TurnView[];
  /** Subagent runs of this run that could not be matched to one of its tool calls. */
  readonly detached: readonly RunView[];
  /** True for a subagent run whose parent run is not in the trace. */
  readonly parentMissing: boolean;
}

export interface TurnView {
  /** Zero-based, as in the events. */
  readonly turn: number;
  readonly startMs: number;
  readonly durationMs: number;
  readonly modelMs: number;
  /** From the first tool call's start to the last one's end. */
  readonly toolMs: number;
  readonly items: readonly ItemView[];
}

export type ItemView = ModelItem | ToolItem | NoticeItem | OtherItem;

export interface ModelItem {
  readonly kind: 'model';
  readonly startMs: number;
  readonly durationMs: number;
  readonly model: string | null;
  readonly finishReason: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly reasoningTokens: number | null;
  readonly cachedTokens: number | null;
  readonly costUsd: number | null;
  readonly content: string | null;
  readonly reasoning: string | null;
  readonly toolCallNames: readonly string[];
  /** How many messages were sent. */
  readonly messageCount: number;
  /** System and user messages first sent on this call (the prompt, or a final-answer request). */
  readonly prompts: readonly { readonly role: string; readonly content: string }[];
  readonly finalAnswer: boolean;
  /** Streamed deltas received for this call. */
  readonly deltas: number;
}

export interface ToolItem {
  readonly kind: 'tool';
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  /** Rebuilt from the batch and the durations (see `toolCallStartOffsets`). */
  readonly startMs: number;
  /** `null` when no result came back. */
  readonly durationMs: number | null;
  /** What the model received. */
  readonly content: string | null;
  readonly error: string | null;
  readonly errorCode: string | null;
  /** Subagent runs this call spawned. */
  readonly children: readonly RunView[];
}

export interface NoticeItem {
  readonly kind: 'warning' | 'error';
  readonly atMs: number;
  readonly code: string | null;
  readonly name: string | null;
  readonly message: string;
}

/** An event type this version does not know, shown as it came. */
export interface OtherItem {
  readonly kind: 'event';
  readonly type: string;
  readonly atMs: number;
  readonly data: unknown;
}

/** Prices for the cost total, per model name as the response reports it. */
export type ModelPrices = Readonly<
  Record<
    string,
    {
      /** US dollars per million prompt tokens that were not served from cache. */
      readonly inputPerMillion: number;
      readonly outputPerMillion: number;
      /** US dollars per million cached prompt tokens. @default inputPerMillion */
      readonly cachedInputPerMillion?: number;
    }
  >
>;
