import { z } from 'zod';
import { defineContextProvider } from '../context-provider.js';
import type { RunHistoryStore } from './run-history-store.js';

/** A caller-supplied playbook: guidance the model can pull in by tag. */
export interface Playbook {
  readonly id: string;
  readonly title: string;
  readonly tags: readonly string[];
  readonly content: string;
}

/** Creates `past_runs` (limit): the most recent runs from `store`, newest first. */
export function createPastRunsProvider(store: RunHistoryStore) {
  return defineContextProvider({
    name: 'past_runs',
    description: 'The most recent past runs of this agent (task, outcome, summary), newest first.',
    parameters: z.object({ limit: z.number().int().min(1).max(50).optional() }),
    fulfill: async ({ limit }) => {
      const records = await store.recent(limit ?? 5);
      if (records.length === 0) return 'No past runs recorded.';
      return records.map((record) => JSON.stringify(record)).join('\n');
    },
  });
}

/** Creates `playbooks` (tags): the entries sharing at least one tag (case-insensitive). */
export function createPlaybooksProvider(playbooks: readonly Playbook[]) {
  const known = [...new Set(playbooks.flatMap((playbook) => playbook.tags))].sort();
  return defineContextProvider({
    name: 'playbooks',
    description: `Team playbooks matching any of the tags. Known tags: ${known.join(', ') || '(none)'}.`,
    parameters: z.object({ tags: z.array(z.string()).min(1) }),
    fulfill: ({ tags }) => {
      const wanted = new Set(tags.map((tag) => tag.toLowerCase()));
      const matches = playbooks.filter((playbook) =>
        playbook.tags.some((tag) => wanted.has(tag.toLowerCase())),
      );
      if (matches.length === 0)
        return `No playbook is tagged ${tags.join(', ')}. Known tags: ${known.join(', ') || '(none)'}.`;
      return matches
        .map((playbook) => `## ${playbook.title} [${playbook.tags.join(', ')}]\n${playbook.content}`)
        .join('\n\n');
    },
  });
}
