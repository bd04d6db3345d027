import { isAbortError } from '../../errors/aborted-error.js';
import { isPausedCall } from '../nested-runs.js';
import type { ToolCall } from '../../model/messages.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import { parseArguments } from '../../tools/parse-arguments.js';
import { errorContent } from '../../tools/serialize-result.js';
import type { ToolCallOutcome, ToolCallRefusal } from '../../tools/tool-call-outcome.js';
import type { ExecuteToolCallsOptions } from '../../tools/tool-runner.js';
import type { GuardrailKind } from '../../tracing/trace-events.js';
import { saveCheckpoint } from '../checkpoint.js';
import { raceAbort } from '../race-abort.js';
import type { RunConfig } from '../run-config.js';
import type { RunState } from '../run-state.js';
import type { TurnProgress } from '../turn-progress.js';
import type { GuardrailRunInfo } from './guardrail-options.js';
import type { GuardrailTrip } from './guardrail-trip.js';
import type { AnyGuardrail, Judgement } from './judge-guardrail.js';
import { judgeGuardrail, recordTrip, traceJudgement } from './judge-guardrail.js';

const neverAborted: AbortSignal = new AbortController().signal;

/**
 * Runs the tool-input guardrails on the turn's calls about to run (`runIndexes`), in call order,
 * before any of them runs. A replacement answers its call, recorded as its outcome (and saved). A
 * tripwire ends the run: no call of the turn runs, and every call without an outcome is answered
 * as not run. Resolves to the indexes that still run.
 */
export async function checkToolInputs(
  state: RunState,
  config: RunConfig,
  turn: TurnProgress,
  registry: ToolRegistry,
  runIndexes: number[],
): Promise<number[]> {
  const guardrails = config.guardrails?.toolInput ?? [];
  let replaced = false;
  if (state.guardrailTrip === undefined && guardrails.length > 0) {
    for (const index of runIndexes) {
      const toolCall = turn.toolCalls[index]!;
      const name = toolCall.function.name;
      const tool = Object.hasOwn(registry, name) ? registry[name] : undefined;
      // A call the runner refuses (unknown tool, bad arguments) never runs: nothing to check.
      const parsed = tool === undefined ? undefined : parseArguments(tool, toolCall.function.arguments);
      if (parsed?.ok !== true) continue;
      const judgement = await judgeToolCall(state, guardrails, 'tool_input', toolCall, {
        ...runInfo(state, config),
        toolCall,
        arguments: parsed.value,
      });
      // Aborted: the runner answers the calls as aborted.
      if (judgement === undefined || judgement.type === 'tripwire') break;
      if (judgement.type === 'replace') {
        const call = turn.calls[index]!;
        call.status = 'done';
        call.outcome = replacedOutcome(toolCall, judgement.result, 0);
        replaced = true;
      }
    }
  }
  if (state.guardrailTrip !== undefined) {
    closeTrippedTurn(state.guardrailTrip, turn);
    return [];
  }
  if (!replaced) return runIndexes;
  await saveCheckpoint(state);
  return runIndexes.filter((index) => turn.calls[index]!.status !== 'done');
}

/**
 * Answers every call of the turn still without an outcome (refused calls aside) as not run,
 * once a guardrail ended the run: the transcript stays valid.
 */
export function closeTrippedTurn(trip: GuardrailTrip, turn: TurnProgress): void {
  for (let index = 0; index < turn.calls.length; index++) {
    const call = turn.calls[index]!;
    if (call.status === 'done' || turn.refusals?.has(index)) continue;
    call.status = 'done';
    call.outcome = trippedOutcome(turn.toolCalls[index]!, notRunMessage(trip), 0);
  }
}

/**
 * Runs the tool-output guardrails on each result the runner produces, before it is recorded,
 * saved or shown to the model: {@link ToolOutputJudge.wrap} judges results as they come in (the
 * runner's `onOutcome`), {@link ToolOutputJudge.settle} any it did not report. After a tripwire,
 * calls not yet started are refused and results still coming are withheld.
 */
export class ToolOutputJudge {
  readonly #state: RunState;
  readonly #config: RunConfig;
  readonly #toolCalls: readonly ToolCall[];
  /** Judged outcomes, by position in the batch. */
  readonly #judged = new Map<number, Promise<ToolCallOutcome>>();

  /** `toolCalls`: the batch handed to the runner. */
  constructor(state: RunState, config: RunConfig, toolCalls: readonly ToolCall[]) {
    this.#state = state;
    this.#config = config;
    this.#toolCalls = toolCalls;
  }

  /** The batch's runner options, with each outcome judged before the run's `onOutcome` sees it. */
  wrap(options: ExecuteToolCallsOptions): ExecuteToolCallsOptions {
    const { beforeCall, onOutcome } = options;
    const state = this.#state;
    return {
      ...options,
      beforeCall: (toolCall, position): ToolCallRefusal | undefined => {
        const trip = state.guardrailTrip;
        if (trip !== undefined) return { errorCode: 'guardrail_tripped', error: notRunMessage(trip) };
        return beforeCall?.(toolCall, position);
      },
      onOutcome: async (outcome, position) => {
        const judged = await this.#judge(outcome, position);
        if (onOutcome !== undefined) await onOutcome(judged, position);
      },
    };
  }

  /** The batch's outcomes as judged, in batch order. */
  async settle(ran: readonly ToolCallOutcome[]): Promise<ToolCallOutcome[]> {
    const settled: ToolCallOutcome[] = [];
    for (let position = 0; position < ran.length; position++) {
      settled.push(await this.#judge(ran[position]!, position));
    }
    return settled;
  }

  #judge(outcome: ToolCallOutcome, position: number): Promise<ToolCallOutcome> {
    let judged = this.#judged.get(position);
    if (judged === undefined) {
      judged = this.#judgeOnce(outcome, this.#toolCalls[position]!);
      this.#judged.set(position, judged);
    }
    return judged;
  }

  async #judgeOnce(outcome: ToolCallOutcome, toolCall: ToolCall): Promise<ToolCallOutcome> {
    const code = outcome.errorCode;
    // Only results of a tool that ran are judged: not a call that paused for its nested run's approvals.
    if (isPausedCall(this.#state, toolCall.id)) return outcome;
    if (
      code !== undefined &&
      code !== 'tool_error' &&
      code !== 'timeout' &&
      code !== 'unserializable_result'
    ) {
      return outcome;
    }
    const state = this.#state;
    const withheld = (trip: GuardrailTrip): ToolCallOutcome =>
      trippedOutcome(
        toolCall,
        `The result of this call was withheld: guardrail "${trip.guardrail}" tripped and the run ended.`,
        outcome.durationMs,
      );
    if (state.guardrailTrip !== undefined) return withheld(state.guardrailTrip);
    const judgement = await judgeToolCall(
      state,
      this.#config.guardrails?.toolOutput ?? [],
      'tool_output',
      toolCall,
      {
        ...runInfo(state, this.#config),
        toolCall,
        content: outcome.content,
        result: outcome.result,
        ...(code === undefined ? {} : { errorCode: code }),
      },
    );
    if (judgement === undefined) {
      // Aborted while judged: not recorded, so a resumed run runs the call again and judges it then.
      const error = 'The run was aborted while a guardrail checked the result of this call.';
      return { ...trippedOutcome(toolCall, error, outcome.durationMs), errorCode: 'aborted' };
    }
    if (judgement.type === 'replace') return replacedOutcome(toolCall, judgement.result, outcome.durationMs);
    if (judgement.type === 'tripwire') return withheld(state.guardrailTrip!);
    return outcome;
  }
}

/**
 * Runs a tool call's guardrails of one kind in list order, up to the first verdict that is not
 * `'pass'`; records a tripwire on the run. Resolves to `undefined` when the run is aborted meanwhile.
 */
async function judgeToolCall<Info>(
  state: RunState,
  guardrails: readonly AnyGuardrail<Info>[],
  kind: GuardrailKind,
  toolCall: ToolCall,
  info: Info,
): Promise<Judgement | undefined> {
  for (const guardrail of guardrails) {
    let timed;
    try {
      timed = await raceAbort(judgeGuardrail(guardrail, kind, info, state.now), state.signal);
    } catch (error) {
      if (isAbortError(error, state.signal)) return undefined;
      throw error;
    }
    traceJudgement(state, guardrail.name, kind, timed, toolCall);
    const { judgement } = timed;
    if (judgement.type === 'tripwire') recordTrip(state, guardrail.name, kind, judgement, toolCall);
    if (judgement.type !== 'pass') return judgement;
  }
  return { type: 'pass' };
}

function runInfo(state: RunState, config: RunConfig): GuardrailRunInfo<object> {
  return { context: config.context, runId: state.runId, signal: state.signal ?? neverAborted };
}

function notRunMessage(trip: GuardrailTrip): string {
  return `This call was not run: guardrail "${trip.guardrail}" tripped and the run ended.`;
}

/** A guardrail's replacement, as the call's result: what the model sees. */
function replacedOutcome(toolCall: ToolCall, result: string, durationMs: number): ToolCallOutcome {
  return { toolCallId: toolCall.id, name: toolCall.function.name, result, content: result, durationMs };
}

function trippedOutcome(toolCall: ToolCall, error: string, durationMs: number): ToolCallOutcome {
  return {
    toolCallId: toolCall.id,
    name: toolCall.function.name,
    error,
    errorCode: 'guardrail_tripped',
    content: errorContent(error),
    durationMs,
  };
}
