import { z } from 'zod';
import { defineTool } from '../../../src/index.js';

/** Looks a word up; the answer is long enough (about 1,600 characters) for the context window to matter. */
export const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up in the dictionary and returns its definition.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: ${'a word of the conformance suite, defined at length. '.repeat(30)}`,
});

/** Deletes a file: needs approval. */
export const remove = defineTool({
  name: 'remove',
  description: 'Deletes a file.',
  parameters: z.object({ path: z.string() }),
  needsApproval: true,
  execute: ({ path }) => `removed ${path}`,
});

/**
 * A tool that, when `hangs()` is true, prints `HANG` and never finishes (so the parent can SIGKILL
 * the process while it runs); otherwise it finishes at once.
 */
export function hangTool(hangs: () => boolean) {
  return defineTool({
    name: 'hang',
    description: 'Runs a long task on a file.',
    parameters: z.object({ path: z.string() }),
    execute: async ({ path }) => {
      if (hangs()) {
        process.stdout.write('HANG\n');
        await new Promise(() => {});
      }
      return `ran on ${path}`;
    },
  });
}
