import type { ContextWindowOptions } from '../../orchestrator/context-window/context-window-options.js';
import { flowContextWindow } from '../shared/flow-context-window.js';
import type { ChatMessage } from '../../model/messages.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import { toolCalled } from '../../orchestrator/stop-conditions.js';
import type { RunResult } from '../../orchestrator/orchestrator-options.js';
import type { TraceEmitter, TraceEvent } from '../../tracing/trace-events.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { createCodeTools } from '../../explore/create-code-tools.js';
import type { CodeIndex } from '../../explore/index/code-index.js';
import { pickTools } from '../shared/default-code-tools.js';
import { explorationSystemPrompt, explorationToolNames } from './exploration-system-prompt.js';
import { createFinishExplorationTool, finishExplorationToolName } from './finish-exploration-tool.js';

/** Receives the warning when an exploration hits `maxSteps` (e.g. `console`). */
export interface ExplorationLogger {
  warn(message: string): void;
}

/** Options of {@link ExplorationOrchestrator}. */
export interface ExplorationOrchestratorOptions {
  /** The repository to explore. */
  readonly repoRoot: string;
  readonly adapter: ModelAdapter;
  /** The most model calls with tools on; the summary call at the limit comes on top. @default 50 */
  readonly maxSteps?: number;
  /** A code index to share with other registries (`createCodeTools({ root, index })`). Ignored when `tools` is given. @default built lazily */
  readonly index?: CodeIndex;
  /**
   * The code tools; the eight the prompt names are picked from it by name, names it lacks are
   * left out. @default the tool pack's tools over a sandbox at `repoRoot`
   */
  readonly tools?: ToolRegistry;
  /** Gets a warning when `maxSteps` is reached. */
  readonly logger?: ExplorationLogger;
  /** Receives every trace event (a parent passes its own sink here). */
  readonly traceEmitter?: TraceEmitter;
  /**
   * Keeps each call under the model's window (see docs/context-window.md); `false` turns it off.
   * @default on, with the adapter's window, or 32,768 tokens when the adapter knows none
   */
  readonly contextWindow?: ContextWindowOptions | boolean;
  readonly signal?: AbortSignal;
}

/**
 * Explores a repository with a model until it calls `finish_exploration({ summary })`, and
 * resolves to that summary. Every tool result goes into `memory`; a failing tool (a missing
 * file) is an error message for the model, and the loop goes on. At `maxSteps` it emits a
 * `warning` trace, calls `logger.warn`, and makes one last call with tools off asking for a
 * summary of what was learned: that summary becomes `understanding`, with
 * `explorationComplete` false, so the work already paid for is not thrown away.
 *
 * @example
 * const explorer = new ExplorationOrchestrator({ repoRoot: '.', adapter });
 * const summary = await explorer.run('Explain the main API');
 */
export class ExplorationOrchestrator {
  readonly repoRoot: string;
  readonly maxSteps: number;
  /** The full conversation of the last run: system prompt, tool calls, every tool result. */
  memory: ChatMessage[] = [];
  /** True when the model called `finish_exploration`. */
  explorationComplete = false;
  /** The summary the model passed to `finish_exploration`, or the summary made at `maxSteps`. */
  understanding = '';
  /** Model calls made with tools on in the last run. */
  steps = 0;
  /** Why the last run ended. */
  stopReason: RunResult['stopReason'] | undefined;
  /** The trace events of the last run. */
  traces: TraceEvent[] = [];
  readonly #options: ExplorationOrchestratorOptions;
  readonly #tools: ToolRegistry;

  constructor(options: ExplorationOrchestratorOptions) {
    const maxSteps = options.maxSteps ?? 50;
    if (!Number.isInteger(maxSteps) || maxSteps < 1) {
      throw new InvalidArgumentError({
        argument: 'maxSteps',
        value: maxSteps,
        message: 'must be a positive integer, e.g. 50.',
      });
    }
    this.#options = options;
    this.repoRoot = options.repoRoot;
    this.maxSteps = maxSteps;
    const codeTools =
      options.tools ??
      createCodeTools({
        root: options.repoRoot,
        ...(options.index === undefined ? {} : { index: options.index }),
      });
    this.#tools = pickTools(codeTools, explorationToolNames);
  }

  /** Runs one exploration for `prompt`; resolves to the understanding summary. */
  async run(prompt: string, options: { readonly signal?: AbortSignal } = {}): Promise<string> {
    let summary: string | undefined;
    const registry: ToolRegistry = {
      ...this.#tools,
      [finishExplorationToolName]: createFinishExplorationTool((text) => {
        summary = text;
      }),
    };
    const orchestrator = new ToolOrchestrator(this.#options.adapter, registry, {
      maxTurns: this.maxSteps,
      stopWhen: toolCalled(finishExplorationToolName),
      // At maxSteps: one traced call with tools off that asks for what was learned so far.
      onCutShort: 'final_answer',
      finalAnswerPrompt: maxStepsSummaryRequest,
      contextWindow: flowContextWindow(this.#options.contextWindow, this.#options.adapter),
      ...(this.#options.traceEmitter === undefined ? {} : { traceEmitter: this.#options.traceEmitter }),
      ...(this.#options.signal === undefined ? {} : { signal: this.#options.signal }),
    });
    const result = await orchestrator.run(
      [{ role: 'user', content: prompt }],
      explorationSystemPrompt(prompt, this.repoRoot),
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const reachedMaxSteps = result.stopReason === 'max_turns';
    const summarized = result.traces.some((event) => event.type === 'llm_call' && event.data.finalAnswer);
    this.memory = result.messages;
    this.traces = result.traces;
    this.stopReason = result.stopReason;
    // `turns` counts the summary call with tools off too; steps are the calls with tools on.
    this.steps = summarized ? result.turns - 1 : result.turns;
    this.explorationComplete = summary !== undefined;
    this.understanding = summary ?? result.content;
    if (reachedMaxSteps) {
      this.#options.logger?.warn(
        `Exploration reached maxSteps (${this.maxSteps}) before the model called finish_exploration; ` +
          'the understanding is a summary made with tools off. Raise maxSteps for a complete exploration.',
      );
    } else if (result.stopReason === 'loop_detected') {
      this.#options.logger?.warn(
        'Exploration stopped because the model kept repeating the same tool call (the loop guard); ' +
          'the understanding is a summary made with tools off.',
      );
    }
    return this.understanding;
  }
}

/** Sent at `maxSteps`, with tools off. */
export const maxStepsSummaryRequest =
  'You have used all your exploration steps. Without calling any tools, summarize what you learned so far ' +
  'for the requested documentation, and name what you did not get to explore.';
