import { contentProblem } from '../model/content-parts.js';
import { resolveOutput } from './output/output-options.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ToolDefinitionError } from '../errors/tool-definition-error.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { ToolRegistry } from '../tools/define-tool.js';
import { resolveContextWindow } from './context-window/resolve-context-window.js';
import type { ResumeOptions, RunOptions, ToolOrchestratorOptions } from './orchestrator-options.js';
import {
  checkBudget,
  checkFunction,
  checkInteger,
  checkLoopGuard,
  checkToolChoice,
} from './validate-run-controls.js';
import { mergeBudgets } from './budget.js';
import { checkGuardrails } from './guardrails/resolve-guardrails.js';

const onCutShortValues = ['return', 'final_answer', 'throw'];

/** Checks the constructor's arguments, so mistakes fail at construction with a clear message. */
export function validateOrchestratorInput(
  adapter: ModelAdapter,
  registry: ToolRegistry,
  options: ToolOrchestratorOptions<object, unknown>,
): void {
  if (typeof adapter?.call !== 'function') {
    throw new InvalidArgumentError({
      argument: 'adapter',
      value: adapter,
      message: 'must implement ModelAdapter: an object with a call(messages, tools, options) method.',
    });
  }
  if (typeof registry !== 'object' || registry === null || Array.isArray(registry)) {
    throw new InvalidArgumentError({
      argument: 'toolRegistry',
      value: registry,
      message: 'must be an object mapping tool names to tools made with defineTool, e.g. { add }.',
    });
  }
  for (const [name, tool] of Object.entries(registry)) {
    if (typeof tool?.execute !== 'function' || typeof tool.inputSchema !== 'object') {
      throw new ToolDefinitionError({
        toolName: name,
        message:
          'is not a tool made with defineTool(); wrap it in defineTool({ name, description, parameters, execute }).',
      });
    }
    if (tool.name !== name) {
      throw new ToolDefinitionError({
        toolName: name,
        message: `is registered under "${name}" but named "${tool.name}"; register it under its own name, e.g. { ${tool.name} }.`,
      });
    }
  }
  const { maxTurns, toolConcurrency, onCutShort } = options;
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns >= 1)) {
    throw new InvalidArgumentError({
      argument: 'maxTurns',
      value: maxTurns,
      message: 'must be an integer of at least 1.',
    });
  }
  if (toolConcurrency !== undefined && !(Number.isInteger(toolConcurrency) && toolConcurrency >= 1)) {
    throw new InvalidArgumentError({
      argument: 'toolConcurrency',
      value: toolConcurrency,
      message: 'must be an integer of at least 1 (1 runs calls one after another).',
    });
  }
  if (onCutShort !== undefined && !onCutShortValues.includes(onCutShort)) {
    throw new InvalidArgumentError({
      argument: 'onCutShort',
      value: onCutShort,
      message: `must be one of ${onCutShortValues.map((value) => `'${value}'`).join(', ')}.`,
    });
  }
  if (options.instructions !== undefined && typeof options.instructions !== 'string') {
    throw new InvalidArgumentError({
      argument: 'instructions',
      value: options.instructions,
      message: 'must be a string: the system prompt of runs that are given none.',
    });
  }
  if (options.finalAnswerPrompt !== undefined && typeof options.finalAnswerPrompt !== 'string') {
    throw new InvalidArgumentError({
      argument: 'finalAnswerPrompt',
      value: options.finalAnswerPrompt,
      message: 'must be a string, or left out.',
    });
  }
  if (options.stream === true && typeof adapter.stream !== 'function') {
    throw new InvalidArgumentError({
      argument: 'stream',
      value: true,
      message: 'needs an adapter with a stream() method; this adapter has none. Leave stream off.',
    });
  }
  checkFunction('prepareTurn', options.prepareTurn);
  checkFunction('repairToolCall', options.repairToolCall);
  checkToolChoice('toolChoice', options.toolChoice, registry);
  if (options.resetToolChoice !== undefined && typeof options.resetToolChoice !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'resetToolChoice',
      value: options.resetToolChoice,
      message: 'must be true or false.',
    });
  }
  checkLoopGuard('loopGuard', options.loopGuard);
  checkBudget('budget', options.budget);
  checkGuardrails('guardrails', options.guardrails);
  mergeBudgets(options.budget, undefined);
  const { traceContent, abortGraceMs } = options;
  if (traceContent !== undefined && traceContent !== 'full' && traceContent !== 'metadata') {
    throw new InvalidArgumentError({
      argument: 'traceContent',
      value: traceContent,
      message: "must be 'full' or 'metadata'.",
    });
  }
  checkInteger(
    'maxTraceChars',
    options.maxTraceChars,
    1,
    'at least 1 (the most characters a trace event keeps of one text)',
  );
  if (
    abortGraceMs !== undefined &&
    !(typeof abortGraceMs === 'number' && Number.isFinite(abortGraceMs) && abortGraceMs >= 0)
  ) {
    throw new InvalidArgumentError({
      argument: 'abortGraceMs',
      value: abortGraceMs,
      message: 'must be a number of milliseconds of at least 0 (0 does not wait for running tools).',
    });
  }
}

/** Checks a run's own options, before the run starts. */
export function validateRunOptions(runOptions: RunOptions<object, unknown>, registry: ToolRegistry): void {
  if (typeof runOptions !== 'object' || runOptions === null) {
    throw new InvalidArgumentError({
      argument: 'runOptions',
      value: runOptions,
      message: 'must be an object such as { signal, context, maxTurns }, or left out.',
    });
  }
  checkInteger('runOptions.maxTurns', runOptions.maxTurns, 1, 'at least 1');
  checkFunction('runOptions.onEvent', runOptions.onEvent);
  checkFunction('runOptions.prepareTurn', runOptions.prepareTurn);
  checkToolChoice('runOptions.toolChoice', runOptions.toolChoice, registry);
  checkLoopGuard('runOptions.loopGuard', runOptions.loopGuard);
  checkBudget('runOptions.budget', runOptions.budget);
  checkGuardrails('runOptions.guardrails', runOptions.guardrails);
}

/**
 * Checks what `run()` and `stream()` were given, before the run starts.
 *
 * @throws {InvalidArgumentError} naming the bad argument.
 */
export function validateRunInput(
  messages: unknown,
  systemPrompt: unknown,
  runOptions: RunOptions<object, unknown>,
  registry: ToolRegistry,
  adapter: ModelAdapter,
): void {
  if (!Array.isArray(messages)) {
    throw new InvalidArgumentError({
      argument: 'messages',
      value: messages,
      message: "must be an array of chat messages, e.g. [{ role: 'user', content: 'hi' }].",
    });
  }
  messages.forEach(checkMessageContent);
  if (systemPrompt !== undefined && typeof systemPrompt !== 'string') {
    throw new InvalidArgumentError({
      argument: 'systemPrompt',
      value: systemPrompt,
      message:
        typeof systemPrompt === 'object' && systemPrompt !== null
          ? 'must be a string or undefined; run options go third: run(messages, undefined, { runId, ... }).'
          : 'must be a string or undefined.',
    });
  }
  validateRunOptions(runOptions, registry);
  resolveContextWindow('runOptions.contextWindow', runOptions.contextWindow, adapter);
  resolveOutput('runOptions.output', runOptions.output, adapter, registry);
}

/**
 * Checks what `resume()` and `resumeStream()` were given.
 *
 * @throws {InvalidArgumentError} naming the bad option.
 */
export function validateResumeOptions(
  resumeOptions: ResumeOptions<object, unknown>,
  registry: ToolRegistry,
): void {
  validateRunOptions(resumeOptions, registry);
  if (resumeOptions.force !== undefined && typeof resumeOptions.force !== 'boolean') {
    throw new InvalidArgumentError({
      argument: 'force',
      value: resumeOptions.force,
      message: 'must be true or false.',
    });
  }
}

/**
 * Checks the content parts of a user or tool message given to `run()`: a malformed part would
 * otherwise reach the provider, or a checkpoint that cannot be resumed.
 */
function checkMessageContent(message: unknown, index: number): void {
  if (typeof message !== 'object' || message === null) return;
  const { role, content } = message as { role?: unknown; content?: unknown };
  if ((role !== 'user' && role !== 'tool') || !Array.isArray(content)) return;
  const problem = contentProblem(content);
  if (problem === undefined) return;
  throw new InvalidArgumentError({
    argument: `messages[${index}].content${problem.path}`,
    value: content[Number(problem.path.slice(1, -1))],
    message: `must be ${problem.expected}.`,
  });
}
