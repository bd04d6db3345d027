import type { ModelResponse } from '../../src/index.js';
import type { EvalReport } from '../../src/evals.js';
import { answerEquals, evaluate, toolWasCalled } from '../../src/evals.js';
import { ScriptedAdapter } from '../../src/testing/index.js';
import { runScripted, usage } from './scripted-eval.js';

/** A case id and an answer that would run script if the report page did not escape them. */
export const hostileId = '<script>document.title="pwned"</script>';
export const hostileAnswer = '<img src=x onerror="document.title=\'pwned\'">';

/**
 * Evaluates four cases with scripted agents (a ToolOrchestrator with `lookup`, priced at $1 per
 * million tokens) and two scorers, `answer_equals` and `tool_was_called`:
 * - `France` looks France up and answers Paris: passes;
 * - `Peru` looks Peru up and answers Cusco (expected Lima): fails `answer_equals`;
 * - {@link hostileId} answers {@link hostileAnswer} without a lookup: fails both;
 * - `Mars`: the task throws, so the case errored.
 */
export function evaluateMixed(): Promise<EvalReport> {
  const scripts: Record<string, readonly ModelResponse[]> = {
    France: [
      ScriptedAdapter.toolCalls([['lookup', { word: 'France' }, 'call_france']], { usage: usage(10) }),
      ScriptedAdapter.text('Paris', { usage: usage(10) }),
    ],
    Peru: [
      ScriptedAdapter.toolCalls([['lookup', { word: 'Peru' }, 'call_peru']], { usage: usage(10) }),
      ScriptedAdapter.text('Cusco', { usage: usage(10) }),
    ],
    [hostileId]: [ScriptedAdapter.text(hostileAnswer, { usage: usage(10) })],
  };
  return evaluate({
    name: 'capitals',
    dataset: [
      { id: 'France', input: 'France', expected: { answer: 'Paris' } },
      { id: 'Peru', input: 'Peru', expected: { answer: 'Lima' } },
      { id: hostileId, input: hostileId, expected: { answer: 'Nowhere' } },
      { id: 'Mars', input: 'Mars', expected: { answer: 'None' } },
    ],
    task: (input, { signal }) => {
      const script = scripts[String(input)];
      if (script === undefined) throw new Error(`no capital known for ${String(input)} <b>at all</b>`);
      return runScripted(`Capital of ${String(input)}?`, script, signal);
    },
    scorers: [answerEquals(), toolWasCalled('lookup')],
    concurrency: 1,
  });
}
