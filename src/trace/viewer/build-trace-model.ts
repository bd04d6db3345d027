import { contentAsText, contentProblem } from '../../model/content-parts.js';
import type { ChatMessage } from '../../model/messages.js';
import { reasoningText } from '../../model/reasoning-text.js';
import { traceContentText } from '../../tracing/cap-trace-text.js';
import type { Usage } from '../../model/usage.js';
import { toolCallStartOffsets } from '../../tracing/tool-call-schedule.js';
import type { TraceEvent, TraceEventData } from '../../tracing/trace-events.js';
import { sharedPrefixLength } from '../jsonl-codec.js';
import { placeRuns } from './place-subagent-runs.js';
import type {
  ItemView,
  ModelItem,
  ModelPrices,
  OtherItem,
  RunView,
  ToolItem,
  TraceModel,
  TurnView,
} from './trace-model.js';

type Mutable<Type> = { -readonly [Key in keyof Type]: Type[Key] };

/** An event of any type, known or not: what a trace file may hold. */
interface AnyEvent {
  readonly type: string;
  readonly timestamp: number;
  readonly runId: string;
  readonly parentRunId?: string;
  readonly parentToolCallId?: string;
  readonly turn: number;
  readonly seq: number;
  readonly data?: unknown;
}

interface TurnBuilder {
  readonly turn: number;
  readonly items: ItemView[];
  readonly tools: Mutable<ToolItem>[];
  /** The batch: the last `tool_call` and the first `tool_result` timestamps. */
  batchStart: number | undefined;
  batchEnd: number | undefined;
  readonly durations: number[];
  model: ModelItem | undefined;
  firstMs: number;
  lastMs: number;
}

interface RunBuilder {
  readonly view: Mutable<RunView> & { turns: TurnView[]; detached: RunView[] };
  readonly turns: Map<number, TurnBuilder>;
  readonly tools: Map<string, Mutable<ToolItem>>;
  transcript: readonly ChatMessage[];
  deltas: number;
  startTimestamp: number;
  endTimestamp: number | undefined;
  parentToolCallId: string | undefined;
}

const labelChars = 100;

/**
 * Builds what the viewer shows from trace events: runs (subagents under the tool call that
 * spawned them), turns, model and tool calls, notices and the totals. Events of types this version
 * does not know become generic items. A subagent run's call is its `parentToolCallId` when the
 * events carry one; otherwise the parent's call whose (rebuilt) time window overlaps the run most.
 */
export function buildTraceModel(
  events: readonly TraceEvent[],
  options: { readonly title?: string; readonly prices?: ModelPrices } = {},
): TraceModel {
  const all = events as readonly unknown[] as readonly AnyEvent[];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const event of all) {
    if (typeof event.timestamp !== 'number') continue;
    if (event.timestamp < first) first = event.timestamp;
    if (event.timestamp > last) last = event.timestamp;
  }
  const origin = Number.isFinite(first) ? first : 0;
  const at = (timestamp: number): number => timestamp - origin;
  const runs = new Map<string, RunBuilder>();
  const totals = {
    toolCalls: 0,
    toolErrors: 0,
    warnings: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    cachedTokens: 0,
    costUsd: null as number | null,
    unpricedCalls: 0,
  };

  const runOf = (event: AnyEvent): RunBuilder => {
    let run = runs.get(event.runId);
    if (run === undefined) {
      run = {
        view: {
          runId: event.runId,
          parentRunId: event.parentRunId ?? null,
          label: event.runId,
          startMs: at(event.timestamp),
          durationMs: null,
          stopReason: null,
          turnCount: 0,
          inputTokens: 0,
          outputTokens: 0,
          turns: [],
          detached: [],
          parentMissing: false,
        },
        turns: new Map(),
        tools: new Map(),
        transcript: [],
        deltas: 0,
        startTimestamp: event.timestamp,
        endTimestamp: undefined,
        parentToolCallId: undefined,
      };
      runs.set(event.runId, run);
    }
    if (run.parentToolCallId === undefined && typeof event.parentToolCallId === 'string')
      run.parentToolCallId = event.parentToolCallId;
    return run;
  };

  const turnOf = (run: RunBuilder, event: AnyEvent): TurnBuilder => {
    const index = typeof event.turn === 'number' ? event.turn : 0;
    let turn = run.turns.get(index);
    if (turn === undefined) {
      turn = {
        turn: index,
        items: [],
        tools: [],
        batchStart: undefined,
        batchEnd: undefined,
        durations: [],
        model: undefined,
        firstMs: at(event.timestamp),
        lastMs: at(event.timestamp),
      };
      run.turns.set(index, turn);
    }
    return turn;
  };

  for (const event of all) {
    if (typeof event.runId !== 'string' || typeof event.type !== 'string') continue;
    const run = runOf(event);
    const data = (event.data ?? {}) as Record<string, unknown>;
    switch (event.type) {
      case 'run_start':
        run.startTimestamp = event.timestamp;
        run.view.startMs = at(event.timestamp);
        break;
      case 'run_end': {
        const end = data as unknown as TraceEventData['run_end'];
        run.endTimestamp = event.timestamp;
        run.view.durationMs = at(event.timestamp) - run.view.startMs;
        run.view.stopReason = typeof end.stopReason === 'string' ? end.stopReason : null;
        break;
      }
      case 'content_delta':
      case 'reasoning_delta':
      case 'tool_call_delta':
        run.deltas++;
        break;
      case 'reasoning_content':
        break;
      case 'llm_call': {
        const item = modelItem(run, event, data as unknown as TraceEventData['llm_call'], at, options.prices);
        const turn = turnOf(run, event);
        turn.model = item;
        turn.items.push(item);
        touch(turn, item.startMs, item.startMs + item.durationMs);
        run.view.turnCount++;
        run.view.inputTokens += item.inputTokens ?? 0;
        run.view.outputTokens += item.outputTokens ?? 0;
        totals.inputTokens += item.inputTokens ?? 0;
        totals.outputTokens += item.outputTokens ?? 0;
        totals.reasoningTokens += item.reasoningTokens ?? 0;
        totals.cachedTokens += item.cachedTokens ?? 0;
        if (item.costUsd !== null) totals.costUsd = (totals.costUsd ?? 0) + item.costUsd;
        else if (item.inputTokens !== null) totals.unpricedCalls++;
        break;
      }
      case 'tool_call': {
        const call = (data as unknown as TraceEventData['tool_call']).toolCall;
        const turn = turnOf(run, event);
        const item: Mutable<ToolItem> = {
          kind: 'tool',
          id: String(call?.id ?? ''),
          name: String(call?.function?.name ?? ''),
          arguments: String(call?.function?.arguments ?? ''),
          startMs: at(event.timestamp),
          durationMs: null,
          content: null,
          error: null,
          errorCode: null,
          children: [],
        };
        turn.tools.push(item);
        turn.durations.push(0);
        turn.items.push(item);
        turn.batchStart = event.timestamp;
        run.tools.set(item.id, item);
        totals.toolCalls++;
        touch(turn, item.startMs, item.startMs);
        break;
      }
      case 'tool_result': {
        const result = data as unknown as TraceEventData['tool_result'];
        const item = run.tools.get(String(result.toolCallId));
        if (item === undefined) break;
        const turn = turnOf(run, event);
        turn.batchEnd ??= event.timestamp;
        item.durationMs = typeof result.durationMs === 'number' ? result.durationMs : 0;
        turn.durations[turn.tools.indexOf(item)] = item.durationMs;
        item.content = Array.isArray(result.content)
          ? traceContentText(result.content)
          : typeof result.content === 'string'
            ? result.content
            : null;
        if (typeof result.error === 'string') {
          item.error = result.error;
          item.errorCode = typeof result.errorCode === 'string' ? result.errorCode : null;
          totals.toolErrors++;
        }
        touch(turn, at(event.timestamp), at(event.timestamp));
        break;
      }
      case 'warning':
      case 'error': {
        const notice = data as { code?: unknown; name?: unknown; message?: unknown };
        const turn = turnOf(run, event);
        turn.items.push({
          kind: event.type,
          atMs: at(event.timestamp),
          code: typeof notice.code === 'string' ? notice.code : null,
          name: typeof notice.name === 'string' ? notice.name : null,
          message: typeof notice.message === 'string' ? notice.message : JSON.stringify(event.data),
        });
        touch(turn, at(event.timestamp), at(event.timestamp));
        if (event.type === 'warning') totals.warnings++;
        else totals.errors++;
        break;
      }
      default: {
        const item: OtherItem = {
          kind: 'event',
          type: event.type,
          atMs: at(event.timestamp),
          data: event.data ?? null,
        };
        const turn = turnOf(run, event);
        turn.items.push(item);
        touch(turn, item.atMs, item.atMs);
      }
    }
  }

  for (const run of runs.values()) finishTurns(run, at);
  const roots = placeRuns(runs);
  return {
    title: options.title ?? defaultTitle(roots),
    startedAt: Number.isFinite(first) ? first : null,
    totals: {
      events: all.length,
      runs: runs.size,
      turns: [...runs.values()].reduce((sum, run) => sum + run.view.turnCount, 0),
      ...totals,
      wallMs: Number.isFinite(first) ? last - first : 0,
    },
    runs: roots,
  };
}

function touch(turn: TurnBuilder, startMs: number, endMs: number): void {
  if (startMs < turn.firstMs) turn.firstMs = startMs;
  if (endMs > turn.lastMs) turn.lastMs = endMs;
}

function modelItem(
  run: RunBuilder,
  event: AnyEvent,
  data: TraceEventData['llm_call'],
  at: (timestamp: number) => number,
  prices: ModelPrices | undefined,
): ModelItem {
  const response = data.response ?? { content: null };
  const messages = Array.isArray(data.messages) ? data.messages : [];
  const shared = sharedPrefixLength(run.transcript, messages);
  run.transcript = messages;
  const prompts: { role: string; content: string }[] = [];
  for (let index = shared; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'system' || message.role === 'user')
      prompts.push({ role: message.role, content: promptText(message.content) });
  }
  const usage: Partial<Usage> | undefined = data.usage ?? response.usage;
  const durationMs = typeof data.durationMs === 'number' ? data.durationMs : 0;
  const model = typeof response.model === 'string' ? response.model : null;
  const deltas = run.deltas;
  run.deltas = 0;
  return {
    kind: 'model',
    startMs: at(event.timestamp) - durationMs,
    durationMs,
    model,
    finishReason: typeof response.finish_reason === 'string' ? response.finish_reason : null,
    inputTokens: usage?.promptTokens ?? null,
    outputTokens: usage?.completionTokens ?? null,
    reasoningTokens: usage?.reasoningTokens ?? null,
    cachedTokens: usage?.cachedPromptTokens ?? null,
    costUsd: cost(usage, model === null ? undefined : prices?.[model]),
    content: typeof response.content === 'string' ? response.content : null,
    reasoning: reasoningText(response) || null,
    toolCallNames: (response.tool_calls ?? []).map((call) => String(call?.function?.name ?? '')),
    messageCount: messages.length,
    prompts,
    finalAnswer: data.finalAnswer === true,
    deltas,
  };
}

function cost(usage: Partial<Usage> | undefined, price: ModelPrices[string] | undefined): number | null {
  if (usage === undefined || price === undefined) return null;
  const cached = usage.cachedPromptTokens ?? 0;
  const fresh = (usage.promptTokens ?? 0) - cached;
  return (
    (fresh * price.inputPerMillion +
      cached * (price.cachedInputPerMillion ?? price.inputPerMillion) +
      (usage.completionTokens ?? 0) * price.outputPerMillion) /
    1e6
  );
}

/** Sorts each run's turns, rebuilds tool call starts and sets the turn timings. */
function finishTurns(run: RunBuilder, at: (timestamp: number) => number): void {
  const turns = [...run.turns.values()].sort((a, b) => a.turn - b.turn);
  for (const turn of turns) {
    let toolMs = 0;
    if (turn.tools.length > 0 && turn.batchStart !== undefined) {
      const end = turn.batchEnd ?? turn.batchStart;
      const offsets = toolCallStartOffsets(turn.durations, end - turn.batchStart);
      let last = 0;
      turn.tools.forEach((tool, index) => {
        tool.startMs = at(turn.batchStart!) + offsets[index]!;
        last = Math.max(last, offsets[index]! + (tool.durationMs ?? 0));
      });
      toolMs = last;
    }
    run.view.turns.push({
      turn: turn.turn,
      startMs: turn.firstMs,
      durationMs: turn.lastMs - turn.firstMs,
      modelMs: turn.model?.durationMs ?? 0,
      toolMs,
      items: turn.items,
    });
  }
  const firstPrompt = turns.flatMap((turn) => turn.items).find((item) => item.kind === 'model') as
    ModelItem | undefined;
  const question = firstPrompt?.prompts.find((prompt) => prompt.role === 'user')?.content;
  if (question !== undefined) run.view.label = oneLine(question);
}

function defaultTitle(roots: readonly RunView[]): string {
  const first = roots[0];
  return first === undefined ? 'Empty trace' : `Trace: ${first.label}`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > labelChars ? `${flat.slice(0, labelChars - 1)}…` : flat;
}

/** A system or user message's content as the viewer shows it: images and files by their placeholders. */
function promptText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) && contentProblem(content) === undefined
    ? contentAsText(content as Parameters<typeof contentAsText>[0])
    : String(content);
}
