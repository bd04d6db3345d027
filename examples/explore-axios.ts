/**
 * Runs the three exploration flows against the axios package in node_modules:
 * 1. ExplorationOrchestrator: tools until finish_exploration, then the summary.
 * 2. exploreContext + generateWithContext: the context-request loop, then the answer.
 * 3. runExplorer: the read-only explorer subagent's JSON report and the recommended next step.
 *
 *   DEEPSEEK_API_KEY=sk-... npx tsx examples/explore-axios.ts
 *   OPENAI_API_KEY=sk-...   npx tsx examples/explore-axios.ts
 *
 * `DEEPSEEK_MODEL` / `OPENAI_MODEL` pick the model (defaults `deepseek-v4-flash`, `gpt-5-mini`).
 * Imports come from ../src so the example type-checks before a build.
 */
import { fileURLToPath } from 'node:url';
import { DeepSeekAdapter } from '../src/adapters/deepseek/index.js';
import { OpenAIAdapter } from '../src/adapters/openai/index.js';
import type { ModelAdapter } from '../src/model/model-adapter.js';
import { ExplorationOrchestrator } from '../src/flows/exploration/exploration-orchestrator.js';
import { createContextProviders } from '../src/flows/context/create-context-providers.js';
import { exploreContext } from '../src/flows/context/explore-context.js';
import { generateWithContext } from '../src/flows/context/generate-with-context.js';
import { runExplorer } from '../src/flows/explorer/run-explorer.js';
import { recommendedNextStep } from '../src/flows/explorer/recommended-next-step.js';

/**
 * One adapter for every flow: the structured answers (the context loop's requests, the explorer's
 * report) are typed outputs, native structured output where the adapter has it, else a tool.
 */
function createAdapters(): { tools: ModelAdapter; name: string } | undefined {
  if (process.env['DEEPSEEK_API_KEY']) {
    const model = process.env['DEEPSEEK_MODEL'] ?? 'deepseek-v4-flash';
    return { tools: new DeepSeekAdapter({ model }), name: `DeepSeek ${model}` };
  }
  if (process.env['OPENAI_API_KEY']) {
    const model = process.env['OPENAI_MODEL'] ?? 'gpt-5-mini';
    return { tools: new OpenAIAdapter({ model }), name: `OpenAI ${model}` };
  }
  return undefined;
}

const adapters = createAdapters();
if (adapters === undefined) {
  console.error(
    'No API key found. Set DEEPSEEK_API_KEY (uses DeepSeekAdapter) or OPENAI_API_KEY (uses OpenAIAdapter), e.g.\n' +
      '  DEEPSEEK_API_KEY=sk-... npx tsx examples/explore-axios.ts',
  );
  process.exit(2);
}

const root = fileURLToPath(new URL('../node_modules/axios', import.meta.url));
console.log(`Exploring ${root} with ${adapters.name}\n`);

// 1. The exploration orchestrator.
const explorer = new ExplorationOrchestrator({
  repoRoot: root,
  adapter: adapters.tools,
  maxSteps: 20,
  logger: console,
});
const understanding = await explorer.run('Explain the main axios API');
console.log(
  `== 1. ExplorationOrchestrator (${explorer.steps} steps, complete: ${explorer.explorationComplete})\n${understanding}\n`,
);

// 2. The context-request loop, then the final call.
const task = 'Write a short guide to axios interceptors: where they are stored and in which order they run.';
const explored = await exploreContext({
  adapter: adapters.tools,
  providers: createContextProviders({ root }),
  task,
  maxRounds: 4,
});
console.log(
  `== 2. exploreContext: ${explored.rounds} rounds, ${explored.results.length} results, ${explored.context.length} characters`,
);
for (const request of explored.requests)
  console.log(`  - ${request.provider} ${JSON.stringify(request.params)}: ${request.reason}`);
const answer = await generateWithContext({ adapter: adapters.tools, task, context: explored.context });
console.log(`\n${answer.content ?? ''}\n`);

// 3. The explorer subagent.
const report = await runExplorer({
  adapter: adapters.tools,
  root,
  question: 'How does axios pick between the XHR, fetch and http adapters?',
  directory: 'lib',
  depth: 'normal',
  timeoutMs: 180_000,
});
console.log('== 3. runExplorer report');
console.log(JSON.stringify(report, null, 2));
console.log('Next step:', recommendedNextStep(report).type);
