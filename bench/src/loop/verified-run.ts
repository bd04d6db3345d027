import type { PreparedRun, Script } from './scenarios.js';

/** Plays the script once and checks the final text, the tool executions and the model calls. */
export async function verifiedRun(run: PreparedRun, script: Script): Promise<void> {
  const executionsBefore = script.executions;
  script.reset();
  const text = await run();
  const executed = script.executions - executionsBefore;
  const { scenario } = script;
  if (text !== scenario.finalText) {
    throw new Error(
      `final text was ${JSON.stringify(text.slice(0, 80))}, expected ${JSON.stringify(scenario.finalText)}`,
    );
  }
  if (executed !== scenario.expectedExecutions) {
    throw new Error(`executed ${executed} tool calls, expected ${scenario.expectedExecutions}`);
  }
  if (script.turn !== scenario.turns.length) {
    throw new Error(`made ${script.turn} model calls, expected ${scenario.turns.length}`);
  }
}
