import { contentProblem } from '../model/content-parts.js';
import { InvalidRunStateError } from '../errors/invalid-run-state-error.js';
import { kindOf } from '../errors/describe-value.js';
import type { RunState } from './run-state.js';
import { runStateVersion } from './run-state.js';
import { providerDataProblem, reasoningProblem } from '../model/provider-data-shape.js';

type Fields = { readonly [key: string]: unknown };

const usageFields = [
  'promptTokens',
  'completionTokens',
  'totalTokens',
  'reasoningTokens',
  'cachedPromptTokens',
] as const;
const toolCallStatuses = ['pending', 'started', 'done'];

/**
 * Checks that a value read back from storage (or given to `resume`) is a {@link RunState} of the
 * version this package reads, with every field of the right shape, and returns it unchanged.
 *
 * @throws {InvalidRunStateError} naming the first bad field (`messages[3].role`), its value and what to do.
 */
export function validateRunState(value: unknown): RunState {
  const state = record(value, '', undefined);
  const runId = typeof state['runId'] === 'string' ? state['runId'] : undefined;
  if (state['version'] !== runStateVersion) {
    invalid(
      'version',
      state['version'],
      typeof state['version'] === 'number' && state['version'] > runStateVersion
        ? `this package reads run states of version ${runStateVersion}; a newer tool-orchestrator wrote it. Resume it with that version.`
        : `must be ${runStateVersion}, the run state version this package writes.`,
      runId,
    );
  }
  if (runId === undefined || runId === '')
    invalid('runId', state['runId'], 'must be a non-empty string.', runId);
  count(state['step'], 'step', runId);
  count(state['turns'], 'turns', runId);
  const usage = record(state['usage'], 'usage', runId);
  for (const field of usageFields) {
    if (!(isFiniteNumber(usage[field]) && (usage[field] as number) >= 0)) {
      invalid(`usage.${field}`, usage[field], 'must be a number of tokens, 0 or more.', runId);
    }
  }
  validateMessages(state['messages'], runId);
  const toolCallIds = validateCurrentTurn(state['currentTurn'], runId);
  const pending = list(state['pendingApprovals'], 'pendingApprovals', runId);
  pending.forEach((entry, index) => {
    const path = `pendingApprovals[${index}]`;
    const approval = record(entry, path, runId);
    const toolCallId = text(approval['toolCallId'], `${path}.toolCallId`, runId);
    text(approval['name'], `${path}.name`, runId);
    text(approval['arguments'], `${path}.arguments`, runId);
    const outermost = approval['agentPath'] === undefined ? toolCallId : agentCallId(approval, path, runId);
    if (toolCallIds.get(outermost) !== 'pending') {
      invalid(
        approval['agentPath'] === undefined ? `${path}.toolCallId` : `${path}.agentPath[0].toolCallId`,
        outermost,
        'must name a call of currentTurn.toolCalls whose status is "pending": only a call that has not run can wait for approval.',
        runId,
      );
    }
  });
  const decisions = record(state['approvalDecisions'], 'approvalDecisions', runId);
  for (const [toolCallId, entry] of Object.entries(decisions)) {
    const path = `approvalDecisions[${JSON.stringify(toolCallId)}]`;
    const decision = record(entry, path, runId);
    if (typeof decision['approved'] !== 'boolean') {
      invalid(`${path}.approved`, decision['approved'], 'must be true or false.', runId);
    }
    if (decision['reason'] !== undefined) text(decision['reason'], `${path}.reason`, runId);
  }
  const stopReason = state['stopReason'];
  if (stopReason !== null && (typeof stopReason !== 'string' || stopReason === '')) {
    invalid(
      'stopReason',
      stopReason,
      'must be null while the run goes on, or why it stopped (e.g. "final").',
      runId,
    );
  }
  if (state['result'] !== null) {
    if (stopReason === null || stopReason === 'awaiting_approval') {
      invalid(
        'result',
        state['result'],
        `must be null while the run has not ended (stopReason is ${JSON.stringify(stopReason)}).`,
        runId,
      );
    }
    text(record(state['result'], 'result', runId)['content'], 'result.content', runId);
  }
  const fingerprint = record(state['fingerprint'], 'fingerprint', runId);
  const tools = record(fingerprint['tools'], 'fingerprint.tools', runId);
  for (const [toolName, hash] of Object.entries(tools)) text(hash, `fingerprint.tools.${toolName}`, runId);
  if (fingerprint['model'] !== undefined) text(fingerprint['model'], 'fingerprint.model', runId);
  record(state['strategyState'], 'strategyState', runId);
  return value as RunState;
}

function validateMessages(value: unknown, runId: string | undefined): void {
  const messages = list(value, 'messages', runId);
  for (let index = 0; index < messages.length; index++) {
    const path = `messages[${index}]`;
    const message = record(messages[index], path, runId);
    const role = message['role'];
    switch (role) {
      case 'system':
        text(message['content'], `${path}.content`, runId);
        break;
      case 'user':
        content(message['content'], `${path}.content`, runId);
        break;
      case 'assistant':
        if (message['content'] !== null) text(message['content'], `${path}.content`, runId);
        if (message['reasoning_content'] !== undefined && message['reasoning_content'] !== null) {
          text(message['reasoning_content'], `${path}.reasoning_content`, runId);
        }
        if (message['reasoning'] !== undefined) {
          const problem = reasoningProblem(message['reasoning']);
          if (problem !== undefined)
            invalid(
              `${path}.reasoning${problem.path}`,
              message['reasoning'],
              `must be ${problem.expected}.`,
              runId,
            );
        }
        providerData(message['providerData'], `${path}.providerData`, runId);
        if (message['tool_calls'] !== undefined) {
          list(message['tool_calls'], `${path}.tool_calls`, runId).forEach((entry, callIndex) => {
            const callPath = `${path}.tool_calls[${callIndex}]`;
            const call = record(entry, callPath, runId);
            text(call['id'], `${callPath}.id`, runId);
            if (call['type'] !== 'function')
              invalid(`${callPath}.type`, call['type'], 'must be "function".', runId);
            const called = record(call['function'], `${callPath}.function`, runId);
            text(called['name'], `${callPath}.function.name`, runId);
            text(called['arguments'], `${callPath}.function.arguments`, runId);
            providerData(call['providerData'], `${callPath}.providerData`, runId);
          });
        }
        break;
      case 'tool':
        text(message['tool_call_id'], `${path}.tool_call_id`, runId);
        content(message['content'], `${path}.content`, runId);
        break;
      default:
        invalid(`${path}.role`, role, 'must be one of "system", "user", "assistant", "tool".', runId);
    }
    if (message['name'] !== undefined && role !== 'tool') text(message['name'], `${path}.name`, runId);
  }
}

/** Checks `currentTurn`; returns the status of each of its calls by id. */
function validateCurrentTurn(value: unknown, runId: string | undefined): Map<string, string> {
  const statuses = new Map<string, string>();
  if (value === null) return statuses;
  const turn = record(value, 'currentTurn', runId);
  count(turn['turnIndex'], 'currentTurn.turnIndex', runId);
  list(turn['toolCalls'], 'currentTurn.toolCalls', runId).forEach((entry, index) => {
    const path = `currentTurn.toolCalls[${index}]`;
    const call = record(entry, path, runId);
    const toolCallId = text(call['toolCallId'], `${path}.toolCallId`, runId);
    text(call['name'], `${path}.name`, runId);
    text(call['arguments'], `${path}.arguments`, runId);
    const status = call['status'];
    if (typeof status !== 'string' || !toolCallStatuses.includes(status)) {
      invalid(`${path}.status`, status, 'must be one of "pending", "started", "done".', runId);
    }
    if (status === 'done') {
      const outcome = record(call['outcome'], `${path}.outcome`, runId);
      content(outcome['content'], `${path}.outcome.content`, runId);
      if (outcome['errorCode'] !== undefined) text(outcome['errorCode'], `${path}.outcome.errorCode`, runId);
      if (outcome['error'] !== undefined) text(outcome['error'], `${path}.outcome.error`, runId);
      if (outcome['durationMs'] !== undefined && !isFiniteNumber(outcome['durationMs'])) {
        invalid(
          `${path}.outcome.durationMs`,
          outcome['durationMs'],
          'must be a number of milliseconds.',
          runId,
        );
      }
    } else if (call['outcome'] !== undefined) {
      invalid(
        `${path}.outcome`,
        call['outcome'],
        `must be absent while the status is "${String(status)}".`,
        runId,
      );
    }
    if (statuses.has(toolCallId))
      invalid(`${path}.toolCallId`, toolCallId, 'must be unique within the turn.', runId);
    statuses.set(toolCallId, String(status));
  });
  return statuses;
}

/** A user or tool message's content: a string, or content parts. */
function content(value: unknown, path: string, runId: string | undefined): void {
  const problem = contentProblem(value);
  if (problem === undefined) return;
  if (problem.path === '') invalid(path, value, `must be ${problem.expected}; got ${kindOf(value)}.`, runId);
  const part = (value as readonly unknown[])[Number(problem.path.slice(1, -1))];
  invalid(`${path}${problem.path}`, part, `must be ${problem.expected}.`, runId);
}

function providerData(value: unknown, path: string, runId: string | undefined): void {
  const problem = providerDataProblem(value);
  if (problem !== undefined) invalid(`${path}${problem.path}`, value, `must be ${problem.expected}.`, runId);
}

function invalid(path: string, value: unknown, message: string, runId: string | undefined): never {
  throw new InvalidRunStateError({ path, value, message, ...(runId === undefined ? {} : { runId }) });
}

function record(value: unknown, path: string, runId: string | undefined): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    invalid(path, value, `must be an object; got ${kindOf(value)}.`, runId);
  }
  return value as Fields;
}

function list(value: unknown, path: string, runId: string | undefined): readonly unknown[] {
  if (!Array.isArray(value)) invalid(path, value, `must be an array; got ${kindOf(value)}.`, runId);
  return value as readonly unknown[];
}

function text(value: unknown, path: string, runId: string | undefined): string {
  if (typeof value !== 'string') invalid(path, value, `must be a string; got ${kindOf(value)}.`, runId);
  return value as string;
}

function count(value: unknown, path: string, runId: string | undefined): number {
  if (!(typeof value === 'number' && Number.isInteger(value) && value >= 0)) {
    invalid(path, value, 'must be a whole number, 0 or more.', runId);
  }
  return value as number;
}

function isFiniteNumber(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value);
}

/** The id of the run's own agent-tool call a nested call waiting for approval sits in, its path checked. */
function agentCallId(approval: Record<string, unknown>, path: string, runId: string): string {
  const steps = list(approval['agentPath'], `${path}.agentPath`, runId);
  if (steps.length === 0)
    invalid(`${path}.agentPath`, steps, 'must list at least one agent-tool call.', runId);
  steps.forEach((entry, index) => {
    const step = record(entry, `${path}.agentPath[${index}]`, runId);
    for (const field of ['toolName', 'toolCallId', 'runId'])
      text(step[field], `${path}.agentPath[${index}].${field}`, runId);
  });
  const outermost = (steps[0] as { toolCallId: string }).toolCallId;
  const key = approval['toolCallId'] as string;
  if (!key.startsWith(`${outermost}/`)) {
    invalid(
      `${path}.toolCallId`,
      key,
      `must start with "${outermost}/", the id of the agent-tool call it sits in (agentPath[0].toolCallId).`,
      runId,
    );
  }
  return outermost;
}
