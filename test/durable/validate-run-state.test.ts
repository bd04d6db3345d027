import { describe, expect, it } from 'vitest';
import { InvalidRunStateError, ToolOrchestratorError, validateRunState } from '../../src/index.js';
import type { RunState } from '../../src/index.js';
import { growingStates, makeRunState } from '../support/run-states.js';

/** The error `validateRunState` throws for `value`. */
function failure(value: unknown): InvalidRunStateError {
  try {
    validateRunState(value);
  } catch (error) {
    if (error instanceof InvalidRunStateError) return error;
    throw error;
  }
  throw new Error('validateRunState accepted it');
}

const valid = makeRunState({ runId: 'r1' });
const edit = (change: (state: Record<string, unknown>) => void): unknown => {
  const copy = structuredClone(valid) as unknown as Record<string, unknown>;
  change(copy);
  return copy;
};

describe('validateRunState', () => {
  it('returns a valid state unchanged, and one read back from JSON', () => {
    for (const state of [valid, ...growingStates('r2', 3)]) {
      expect(validateRunState(state)).toBe(state);
      const json = JSON.parse(JSON.stringify(state)) as RunState;
      expect(validateRunState(json)).toEqual(state);
    }
  });

  it('refuses another version, saying what to do', () => {
    const newer = failure(edit((state) => (state['version'] = 2)));
    expect(newer).toBeInstanceOf(ToolOrchestratorError);
    expect(newer.code).toBe('invalid_run_state');
    expect(newer.path).toBe('version');
    expect(newer.message).toBe(
      'Invalid run state of run "r1" at version (2): this package reads run states of version 1; a newer tool-orchestrator wrote it. Resume it with that version.',
    );
    expect(failure(edit((state) => delete state['version'])).message).toBe(
      'Invalid run state of run "r1" at version (undefined): must be 1, the run state version this package writes.',
    );
  });

  it('names the first bad field by its path, with its value', () => {
    const cases: [unknown, string, RegExp][] = [
      [null, '', /^Invalid run state \(null\): must be an object; got null\.$/],
      ['{}', '', /must be an object; got a string/],
      [edit((state) => (state['runId'] = '')), 'runId', /must be a non-empty string/],
      [edit((state) => (state['step'] = -1)), 'step', /\(-1\): must be a whole number, 0 or more/],
      [edit((state) => (state['step'] = '3')), 'step', /\("3"\)/],
      [
        edit((state) => ((state['usage'] as Record<string, unknown>)['totalTokens'] = null)),
        'usage.totalTokens',
        /must be a number of tokens/,
      ],
      [edit((state) => (state['messages'] = {})), 'messages', /must be an array; got an object/],
      [
        edit(
          (state) =>
            (state['messages'] = [
              { role: 'user', content: 'a' },
              { role: 'robot', content: 'b' },
            ]),
        ),
        'messages[1].role',
        /\("robot"\): must be one of "system", "user", "assistant", "tool"/,
      ],
      [
        edit((state) => (state['messages'] = [{ role: 'user', content: 3 }])),
        'messages[0].content',
        /got a number/,
      ],
      [
        edit(
          (state) =>
            (state['messages'] = [
              {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'x', type: 'function', function: { name: 'n' } }],
              },
            ]),
        ),
        'messages[0].tool_calls[0].function.arguments',
        /must be a string; got undefined/,
      ],
      [
        edit((state) => (state['messages'] = [{ role: 'tool', content: 'r' }])),
        'messages[0].tool_call_id',
        /got undefined/,
      ],
      [
        edit(
          (state) =>
            (state['currentTurn'] = {
              turnIndex: 0,
              toolCalls: [{ toolCallId: 'a', name: 'n', arguments: '{}', status: 'running' }],
            }),
        ),
        'currentTurn.toolCalls[0].status',
        /must be one of "pending", "started", "done"/,
      ],
      [
        edit(
          (state) =>
            (state['currentTurn'] = {
              turnIndex: 0,
              toolCalls: [{ toolCallId: 'a', name: 'n', arguments: '{}', status: 'done' }],
            }),
        ),
        'currentTurn.toolCalls[0].outcome',
        /must be an object; got undefined/,
      ],
      [
        edit(
          (state) =>
            (state['currentTurn'] = {
              turnIndex: 0,
              toolCalls: [
                { toolCallId: 'a', name: 'n', arguments: '{}', status: 'pending', outcome: { content: 'x' } },
              ],
            }),
        ),
        'currentTurn.toolCalls[0].outcome',
        /must be absent while the status is "pending"/,
      ],
      [
        edit((state) => (state['pendingApprovals'] = [{ toolCallId: 'gone', name: 'n', arguments: '{}' }])),
        'pendingApprovals[0].toolCallId',
        /must name a call of currentTurn\.toolCalls whose status is "pending"/,
      ],
      [
        edit((state) => {
          state['currentTurn'] = {
            turnIndex: 0,
            toolCalls: [{ toolCallId: 'a', name: 'agent', arguments: '{}', status: 'pending' }],
          };
          state['pendingApprovals'] = [
            {
              toolCallId: 'b/c1',
              name: 'rm',
              arguments: '{}',
              agentPath: [{ toolName: 'agent', toolCallId: 'b', runId: 'r/b' }],
            },
          ];
        }),
        'pendingApprovals[0].agentPath[0].toolCallId',
        /must name a call of currentTurn\.toolCalls whose status is "pending"/,
      ],
      [
        edit((state) => {
          state['currentTurn'] = {
            turnIndex: 0,
            toolCalls: [{ toolCallId: 'a', name: 'agent', arguments: '{}', status: 'pending' }],
          };
          state['pendingApprovals'] = [
            {
              toolCallId: 'c1',
              name: 'rm',
              arguments: '{}',
              agentPath: [{ toolName: 'agent', toolCallId: 'a', runId: 'r/a' }],
            },
          ];
        }),
        'pendingApprovals[0].toolCallId',
        /must start with "a\/"/,
      ],
      [
        edit((state) => {
          state['currentTurn'] = {
            turnIndex: 0,
            toolCalls: [{ toolCallId: 'a', name: 'agent', arguments: '{}', status: 'pending' }],
          };
          state['pendingApprovals'] = [
            {
              toolCallId: 'a/c1',
              name: 'rm',
              arguments: '{}',
              agentPath: [{ toolName: 'agent', toolCallId: 'a' }],
            },
          ];
        }),
        'pendingApprovals[0].agentPath[0].runId',
        /must be a string/,
      ],
      [
        edit((state) => (state['approvalDecisions'] = { a: { approved: 'yes' } })),
        'approvalDecisions["a"].approved',
        /must be true or false/,
      ],
      [edit((state) => (state['stopReason'] = 5)), 'stopReason', /must be null while the run goes on/],
      [
        edit((state) => (state['result'] = { content: 'done' })),
        'result',
        /must be null while the run has not ended \(stopReason is null\)/,
      ],
      [
        edit((state) => (state['fingerprint'] = { tools: { a: 1 } })),
        'fingerprint.tools.a',
        /must be a string/,
      ],
      [edit((state) => (state['strategyState'] = [])), 'strategyState', /must be an object; got an array/],
    ];
    for (const [value, path, message] of cases) {
      const error = failure(value);
      expect(error.path, path).toBe(path);
      expect(error.message, path).toMatch(message);
    }
  });

  it('accepts an ended run with its result, a run awaiting approval, and keeps fields it does not know', () => {
    expect(() =>
      validateRunState(makeRunState({ stopReason: 'final', result: { content: 'done' } })),
    ).not.toThrow();
    const awaiting = makeRunState({
      stopReason: 'awaiting_approval',
      currentTurn: {
        turnIndex: 0,
        toolCalls: [{ toolCallId: 'a', name: 'rm', arguments: '{}', status: 'pending' }],
      },
      pendingApprovals: [{ toolCallId: 'a', name: 'rm', arguments: '{}' }],
    });
    expect(validateRunState(awaiting)).toBe(awaiting);
    const nested = makeRunState({
      stopReason: 'awaiting_approval',
      currentTurn: {
        turnIndex: 0,
        toolCalls: [{ toolCallId: 'a', name: 'agent', arguments: '{}', status: 'pending' }],
      },
      pendingApprovals: [
        {
          toolCallId: 'a/b/c',
          name: 'rm',
          arguments: '{}',
          agentPath: [
            { toolName: 'agent', toolCallId: 'a', runId: 'r/a' },
            { toolName: 'inner', toolCallId: 'b', runId: 'r/a/b' },
          ],
        },
      ],
    });
    expect(validateRunState(nested)).toBe(nested);
    const extended = { ...valid, addedLater: { x: 1 } };
    expect(validateRunState(extended)).toBe(extended);
  });
});
