import type { LoopLibrary } from '../scenarios.js';

/** The libraries of the loop benchmarks, by name; each is imported only in its own child process. */
export const loopLibraryLoaders: Record<string, () => Promise<LoopLibrary>> = {
  ours: async () => (await import('./ours.js')).ours,
  ai: async () => (await import('./ai-sdk.js')).aiSdk,
  '@openai/agents': async () => (await import('./openai-agents.js')).openaiAgents,
  'openai runTools': async () => (await import('./openai-run-tools.js')).openaiRunTools,
  'hand-rolled': async () => (await import('./hand-rolled.js')).handRolled,
};

export const loopLibraryNames = Object.keys(loopLibraryLoaders);

/** The name under which `--baseline`'s build of tool-orchestrator is measured beside this one. */
export const baselineLibrary = 'baseline';
