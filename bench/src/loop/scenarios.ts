/** One tool call the scripted model makes: the same ids, names and argument strings for every library. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: string;
  /** The JSON arguments exactly as a model would send them. */
  readonly arguments: string;
}

/** One model turn: tool calls, or (when `calls` is empty) the final text. */
export interface ScriptedTurn {
  readonly calls: readonly ScriptedCall[];
  readonly text: string;
}

export type ScenarioName = 'S1' | 'S2' | 'S3-200' | 'S3-50' | 'probe';

/** A scripted conversation every library must play through to the same final text. */
export interface Scenario {
  readonly name: ScenarioName;
  readonly description: string;
  readonly turns: readonly ScriptedTurn[];
  /** Calls whose arguments are valid: exactly these must reach `execute`. */
  readonly expectedExecutions: number;
  readonly finalText: string;
}

/** What the `page` tool returns: a 2 KB string, built once so every library returns the same bytes. */
export const pageText = 'x'.repeat(2047) + '\n';

const finalText = 'All tool calls are done.';

function toolTurns(turnCount: number, callsPerTurn: number, name: 'add' | 'page'): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const calls: ScriptedCall[] = [];
    for (let index = 0; index < callsPerTurn; index++) {
      calls.push({
        id: `call_${turn}_${index}`,
        name,
        arguments: name === 'add' ? `{"a":${turn},"b":${index}}` : `{"page":${turn}}`,
      });
    }
    turns.push({ calls, text: '' });
  }
  turns.push({ calls: [], text: finalText });
  return turns;
}

function scenario(
  name: ScenarioName,
  description: string,
  turns: ScriptedTurn[],
  expectedExecutions?: number,
): Scenario {
  const calls = turns.reduce((sum, turn) => sum + turn.calls.length, 0);
  return { name, description, turns, expectedExecutions: expectedExecutions ?? calls, finalText };
}

/** Builds a scenario's script; `probe` is the invalid-argument check (one bad call, one good one). */
export function buildScenario(name: ScenarioName): Scenario {
  switch (name) {
    case 'S1':
      return scenario(name, '49 turns x 3 parallel add calls, then a final text', toolTurns(49, 3, 'add'));
    case 'S2':
      return scenario(name, '1 turn x 64 parallel add calls, then a final text', toolTurns(1, 64, 'add'));
    case 'S3-200':
      return scenario(
        name,
        '200 turns x 1 call returning 2 KB, then a final text',
        toolTurns(200, 1, 'page'),
      );
    case 'S3-50':
      return scenario(name, '50 turns x 1 call returning 2 KB, then a final text', toolTurns(50, 1, 'page'));
    case 'probe':
      return scenario(
        name,
        'one add call with a string where a number belongs, one valid call, then a final text',
        [
          {
            calls: [
              { id: 'call_bad', name: 'add', arguments: '{"a":"one","b":2}' },
              { id: 'call_good', name: 'add', arguments: '{"a":1,"b":2}' },
            ],
            text: '',
          },
          { calls: [], text: finalText },
        ],
        1,
      );
  }
}

/** Counts model turns and tool executions, and timestamps each model call of a run. */
export class Script {
  readonly scenario: Scenario;
  turn = 0;
  executions = 0;
  /** `performance.now()` at each model call of the current run. */
  readonly callTimes: Float64Array;

  constructor(scenario: Scenario) {
    this.scenario = scenario;
    this.callTimes = new Float64Array(scenario.turns.length);
  }

  /** Starts a run. */
  reset(): void {
    this.turn = 0;
  }

  /** The turn the model answers now; throws past the end, so a library that loops too long fails verification. */
  next(): ScriptedTurn {
    const index = this.turn++;
    const turn = this.scenario.turns[index];
    if (turn === undefined)
      throw new Error(`The script of ${this.scenario.name} has only ${this.scenario.turns.length} turns.`);
    this.callTimes[index] = performance.now();
    return turn;
  }
}

/** A library's prepared runner: plays the script once and resolves to the final text. */
export type PreparedRun = () => Promise<string>;

/** One library under test. */
export interface LoopLibrary {
  readonly name: string;
  prepare(script: Script): Promise<PreparedRun>;
}
