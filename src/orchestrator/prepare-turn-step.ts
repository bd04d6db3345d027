import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { ChatMessage } from '../model/messages.js';
import type { ModelToolDefinition, ToolChoice } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { raceAbort } from './race-abort.js';
import type { RunConfig } from './run-config.js';
import type { RunState } from './run-state.js';
import type { PrepareTurn } from './turn-hooks.js';
import { checkToolChoice } from './validate-run-controls.js';

/** What one model call sends. `messages` may differ from the transcript (see `prepareTurn`). */
export interface TurnPlan {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ModelToolDefinition[];
  /** The tools this turn's calls may run: the registry, or the `activeTools` of it. */
  readonly registry: ToolRegistry;
  readonly toolChoice: ToolChoice | undefined;
  /** True when `toolChoice` is the standing option, which `resetToolChoice` may turn to `'auto'`. */
  readonly standingChoice: boolean;
}

/**
 * Works out what the next model call sends: the transcript, every tool and the standing tool
 * choice, or what `prepareTurn` returned. With `replaceTranscript`, the returned messages become
 * the transcript (a new array, so earlier snapshots stay as they were).
 *
 * @throws {InvalidArgumentError} when the hook returns tools or a tool choice the registry does not have.
 */
export async function prepareTurnStep(
  state: RunState,
  config: RunConfig,
  finalAnswer: boolean,
): Promise<TurnPlan> {
  const standing = state.toolChoiceReset ? 'auto' : config.toolChoice;
  const plan: TurnPlan = {
    messages: state.messages,
    tools: config.tools,
    registry: config.registry,
    toolChoice: standing,
    standingChoice: true,
  };
  const hook = config.prepareTurn;
  if (hook === undefined) return plan;
  const pending = hook({
    turn: state.turns,
    messages: state.messages,
    tools: config.tools,
    usage: state.usage,
    finalAnswer,
    runId: state.runId,
  });
  const signal = state.signal;
  const prepared: unknown = await raceAbort(pending, signal);
  if (prepared == null) return plan;
  if (typeof prepared !== 'object' || Array.isArray(prepared)) {
    throw new InvalidArgumentError({
      argument: 'prepareTurn()',
      value: prepared,
      message: 'must return nothing or { activeTools?, toolChoice?, messages?, replaceTranscript? }.',
    });
  }
  const changes = prepared as PrepareTurn;
  let messages: readonly ChatMessage[] = state.messages;
  if (changes.messages !== undefined) {
    if (!Array.isArray(changes.messages)) {
      throw new InvalidArgumentError({
        argument: 'prepareTurn().messages',
        value: changes.messages,
        message: 'must be an array of chat messages.',
      });
    }
    // Copied: the hook may reuse its array, and an event's snapshot must not change.
    const copy = [...changes.messages];
    if (changes.replaceTranscript === true) state.messages = copy;
    messages = copy;
  }
  if (finalAnswer) return { ...plan, messages };
  const active = changes.activeTools === undefined ? undefined : activeTools(changes.activeTools, config);
  const registry = active?.registry ?? config.registry;
  if (changes.toolChoice !== undefined)
    checkToolChoice('prepareTurn().toolChoice', changes.toolChoice, registry);
  return {
    messages,
    tools: active?.tools ?? config.tools,
    registry,
    toolChoice: changes.toolChoice ?? standing,
    standingChoice: changes.toolChoice === undefined,
  };
}

function activeTools(
  names: unknown,
  config: RunConfig,
): { registry: ToolRegistry; tools: readonly ModelToolDefinition[] } {
  if (!Array.isArray(names)) {
    throw new InvalidArgumentError({
      argument: 'prepareTurn().activeTools',
      value: names,
      message: 'must be an array of tool names from the registry.',
    });
  }
  const registry: Record<string, ToolRegistry[string]> = {};
  for (const name of names) {
    if (typeof name !== 'string' || !Object.hasOwn(config.registry, name)) {
      throw new InvalidArgumentError({
        argument: 'prepareTurn().activeTools',
        value: name,
        message: `is not a tool of the registry (${Object.keys(config.registry).join(', ') || 'no tools'}).`,
      });
    }
    registry[name] = config.registry[name]!;
  }
  return {
    registry,
    tools: config.tools.filter((tool) => Object.hasOwn(registry, tool.function.name)),
  };
}

/** A choice that makes the model call a tool. */
export function isForcedChoice(choice: ToolChoice | undefined): boolean {
  return choice === 'required' || (typeof choice === 'object' && choice !== null);
}
