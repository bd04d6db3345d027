import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Package from 'tool-orchestrator';
import type { ModelAdapter, ModelResponse, ToolOrchestratorOptions } from 'tool-orchestrator';
import { z } from 'zod';
import { pageText } from '../scenarios.js';
import type { LoopLibrary, PreparedRun, Script } from '../scenarios.js';
import { addDescription, addParameters, pageDescription, pageParameters } from '../tool-schemas.js';

/** How a run of ours is made: `run()`, or `stream()` with a consumer that reads every event. */
export interface OursVariant {
  readonly options?: ToolOrchestratorOptions;
  readonly via: 'run' | 'stream';
  /**
   * A typed output `{ text }` holding the final text: from the JSON answer of an adapter with native
   * structured output, or from the model's call of the final-answer tool. @default none
   */
  readonly output?: 'native' | 'tool';
  /**
   * Every tool call goes through an agent tool (`asTool()`): a nested run whose zero-latency model
   * calls the real tool once and answers with its result, so the work and the answers stay the same.
   * @default false
   */
  readonly childAgent?: boolean;
}

/** The typed output of the `output` variants: the scenario's final text. */
const finalOutput = z.object({ text: z.string() });

/**
 * The package: this checkout's build, or the `dist/` of another checkout (`--baseline`, say main's),
 * which must resolve the same dependencies (a `node_modules` beside it).
 */
export async function loadPackage(packageRoot?: string): Promise<typeof Package> {
  return (await (packageRoot === undefined
    ? import('tool-orchestrator')
    : import(pathToFileURL(join(packageRoot, 'dist', 'index.js')).href))) as typeof Package;
}

/** Prepares tool-orchestrator over a plain-object zero-latency `ModelAdapter`, with `variant`'s options. */
export async function prepareOurs(
  script: Script,
  variant: OursVariant,
  packageRoot?: string,
): Promise<PreparedRun> {
  const { ToolOrchestrator, defineTool } = await loadPackage(packageRoot);
  const responses: ModelResponse[] = script.scenario.turns.map((turn) =>
    turn.calls.length === 0
      ? finalResponse(turn.text, variant.output)
      : {
          content: null,
          finish_reason: 'tool_calls',
          tool_calls: turn.calls.map((call) => ({
            id: call.id,
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments },
          })),
        },
  );
  const adapter: ModelAdapter = {
    provider: 'bench',
    supportsResponseFormat: variant.output === 'native',
    call() {
      const index = script.turn;
      script.next();
      return Promise.resolve(responses[index]!);
    },
  };
  const add = defineTool({
    name: 'add',
    description: addDescription,
    parameters: addParameters,
    execute: ({ a, b }) => {
      script.executions++;
      return a + b;
    },
  });
  const page = defineTool({
    name: 'page',
    description: pageDescription,
    parameters: pageParameters,
    execute: () => {
      script.executions++;
      return pageText;
    },
  });
  const tools = variant.childAgent === true ? agentTools(ToolOrchestrator, { add, page }) : { add, page };
  const orchestrator = new ToolOrchestrator(adapter, tools, {
    maxTurns: script.scenario.turns.length,
    toolConcurrency: 64,
    ...variant.options,
  });
  const messages = [{ role: 'user' as const, content: 'Run the benchmark script.' }];
  if (variant.output !== undefined) {
    return async () => {
      const result = await orchestrator.run(messages, undefined, { output: finalOutput });
      return result.output?.text ?? `no output (${result.stopReason})`;
    };
  }
  if (variant.via === 'run') return async () => (await orchestrator.run(messages)).content;
  return async () => {
    const stream = orchestrator.stream(messages);
    let events = 0;
    for await (const event of stream) if (event.seq >= 0) events++;
    const result = await stream.result;
    if (events !== result.traces.length) throw new Error(`read ${events} events of ${result.traces.length}`);
    return result.content;
  };
}

/** tool-orchestrator with its defaults (the loop guard on), through `run()`. */
export const ours: LoopLibrary = {
  name: 'ours',
  prepare: (script) => prepareOurs(script, { via: 'run' }),
};

/** The same, from another checkout's build (`--baseline`). */
export function oursAt(packageRoot: string): LoopLibrary {
  return { name: 'baseline', prepare: (script) => prepareOurs(script, { via: 'run' }, packageRoot) };
}

/** The final turn: the text, or the same as the typed output's JSON answer or final-answer call. */
function finalResponse(text: string, output: OursVariant['output']): ModelResponse {
  if (output === 'native') return { content: JSON.stringify({ text }), finish_reason: 'stop' };
  if (output === 'tool') {
    return {
      content: null,
      finish_reason: 'tool_calls',
      tool_calls: [
        {
          id: 'final',
          type: 'function',
          function: { name: 'final_answer', arguments: JSON.stringify({ text }) },
        },
      ],
    };
  }
  return { content: text, finish_reason: 'stop' };
}

/**
 * The tools as agent tools of one child agent: its model asks for the named tool with the call's
 * arguments, then answers with the tool's result as its text.
 */
function agentTools(
  Orchestrator: typeof Package.ToolOrchestrator,
  tools: Package.ToolRegistry,
): Package.ToolRegistry {
  const childAdapter: ModelAdapter = {
    provider: 'bench-child',
    call(messages) {
      const last = messages.at(-1)!;
      if (last.role === 'tool') {
        return Promise.resolve({
          content: typeof last.content === 'string' ? last.content : '',
          finish_reason: 'stop',
        });
      }
      const { name, args } = JSON.parse(last.content as string) as { name: string; args: string };
      return Promise.resolve({
        content: null,
        finish_reason: 'tool_calls',
        tool_calls: [{ id: 'child_call', type: 'function', function: { name, arguments: args } }],
      });
    },
  };
  const child = new Orchestrator(childAdapter, tools, { maxTurns: 2 });
  const asTool = (name: 'add' | 'page', description: string, parameters: unknown): Package.Tool =>
    child.asTool({
      name,
      description,
      parameters,
      prompt: (input: unknown) => JSON.stringify({ name, args: JSON.stringify(input) }),
    });
  return {
    add: asTool('add', addDescription, addParameters),
    page: asTool('page', pageDescription, pageParameters),
  };
}
