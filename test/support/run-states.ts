import type { ChatMessage, RunState, ToolCallRecord } from '../../src/index.js';
import { emptyUsage } from '../../src/index.js';
import { fingerprintRun } from '../../src/durable/run-fingerprint.js';
import { runStateVersion } from '../../src/durable/run-state.js';

/** A run state with every field at a plain value, `overrides` on top. */
export function makeRunState(overrides: Partial<RunState> = {}): RunState {
  return {
    version: runStateVersion,
    runId: 'run-1',
    step: 0,
    messages: [{ role: 'user', content: 'hello' }],
    turns: 0,
    usage: emptyUsage,
    currentTurn: null,
    pendingApprovals: [],
    approvalDecisions: {},
    stopReason: null,
    result: null,
    fingerprint: fingerprintRun({ tools: [], model: 'test-model' }),
    strategyState: {},
    ...overrides,
  };
}

/** The messages of one tool turn: the assistant's call and the tool's `resultBytes`-long answer. */
export function toolTurnMessages(turn: number, resultBytes: number): [ChatMessage, ChatMessage] {
  const id = `call_${turn}`;
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name: 'page', arguments: `{"page":${turn}}` } }],
    },
    { role: 'tool', tool_call_id: id, content: `${turn}:`.padEnd(resultBytes, 'x') },
  ];
}

/**
 * The states a run saves over `turns` tool turns (S3 of the benchmarks: one call a turn, each
 * returning `resultBytes`): after each model response (the call pending) and after each tool
 * result (recorded, and appended to the transcript). The transcript array only grows, as the loop's
 * does; each state holds the messages so far.
 */
export function growingStates(runId: string, turns: number, resultBytes = 2048): RunState[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You read pages.' },
    { role: 'user', content: 'Read every page.' },
  ];
  const states: RunState[] = [];
  let step = 0;
  for (let turn = 0; turn < turns; turn++) {
    const [assistant, tool] = toolTurnMessages(turn, resultBytes);
    messages.push(assistant);
    const call: ToolCallRecord = {
      toolCallId: `call_${turn}`,
      name: 'page',
      arguments: `{"page":${turn}}`,
      status: 'pending',
    };
    const usage = {
      ...emptyUsage,
      promptTokens: turn * 600,
      totalTokens: turn * 610,
      completionTokens: turn * 10,
    };
    states.push(
      makeRunState({
        runId,
        step: ++step,
        messages: messages.slice(),
        turns: turn + 1,
        usage,
        currentTurn: { turnIndex: turn, toolCalls: [call] },
      }),
    );
    messages.push(tool);
    states.push(
      makeRunState({
        runId,
        step: ++step,
        messages: messages.slice(),
        turns: turn + 1,
        usage,
        currentTurn: null,
      }),
    );
  }
  return states;
}
