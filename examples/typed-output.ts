// Run with: npx tsx examples/typed-output.ts
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
import { ScriptedAdapter } from 'tool-orchestrator/testing';

const lookup = defineTool({
  name: 'lookup_weather',
  description: 'The weather in a city',
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, celsius: 21, sky: 'clear' }),
});

const Weather = z.object({
  city: z.string(),
  celsius: z.number(),
  advice: z.string().describe('One sentence for someone going out'),
});

// A scripted model with no native structured output: the run offers it a final_answer tool. Its
// first answer leaves out a field, so the run shows it what is wrong and it answers again.
const adapter = new ScriptedAdapter([
  ScriptedAdapter.toolCalls([['lookup_weather', { city: 'Paris' }]]),
  ScriptedAdapter.toolCalls([['final_answer', { city: 'Paris', celsius: 21 }]]),
  (messages) => {
    console.log(`the model was told: ${String(messages.at(-1)?.content)}`);
    return ScriptedAdapter.toolCalls([
      ['final_answer', { city: 'Paris', celsius: 21, advice: 'Leave the umbrella at home.' }],
    ]);
  },
]);

const orchestrator = new ToolOrchestrator(adapter, { lookup_weather: lookup }, { output: Weather });
const result = await orchestrator.run([{ role: 'user', content: 'Should I take an umbrella in Paris?' }]);
// result.output is typed { city: string; celsius: number; advice: string } | undefined.
console.log(`${result.output?.city}: ${result.output?.celsius} °C. ${result.output?.advice}`);
console.log(`(${result.stopReason} after ${result.turns} turns)`);
