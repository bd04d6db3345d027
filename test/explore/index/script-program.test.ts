import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadCodeIndexQueries } from '../../../src/explore/index/load-code-index-queries.js';
import { ListingResolvers } from '../../../src/explore/index/modules/listing-resolvers.js';
import { ProjectFiles } from '../../../src/explore/index/project-files.js';
import { ScriptProgram } from '../../../src/explore/index/script-program.js';
import type { WarmStep } from '../../../src/explore/index/script-program.js';
import { SourceTexts } from '../../../src/explore/index/source-texts.js';
import { Sandbox } from '../../../src/explore/sandbox/sandbox.js';

const root = fileURLToPath(new URL('../../fixtures/code-index/monorepo', import.meta.url));

async function programOver(scope: 'question' | 'whole-repo') {
  const sandbox = new Sandbox({ root });
  const files = new ProjectFiles({
    sandbox,
    maxFileBytes: 1024 * 1024,
    loadParser: () =>
      loadCodeIndexQueries().then(
        ({ parseFile }) =>
          async (source) =>
            parseFile(source.path, await source.text()),
      ),
  });
  const texts = new SourceTexts({ sandbox, maxFileBytes: 1024 * 1024 });
  await files.revalidate();
  await texts.update(files.versions());
  const resolver = await new ListingResolvers(sandbox).resolverFor(await files.list());
  const program = new ScriptProgram({ root: sandbox.root, files, texts, scope });
  // A question that reached one file: the program starts from it (and what it imports).
  const first = files.scriptFiles()[0]!;
  await program.context({ files: [], byPath: new Map(), resolver }, [first], {
    scriptFilesMentioning: () => [],
    missing: () => undefined,
  });
  return { program, scriptFiles: files.scriptFiles() };
}

describe('ScriptProgram warming', () => {
  it('parses the files the program lacks ahead, then adds them all, then has nothing left to do', async () => {
    const { program, scriptFiles } = await programOver('question');
    expect(scriptFiles.length).toBeGreaterThan(3);
    const steps: WarmStep[] = [];
    for (let step = program.warmStep({ maxFiles: 2, maxMilliseconds: 0 }); ;) {
      steps.push(step);
      if (step.remaining === 0 || steps.length > 100) break;
      step = program.warmStep({ maxFiles: 2, maxMilliseconds: 0 });
    }
    // With no time to spare, each slice parses one file ahead until all are parsed; only then are files added.
    const firstAdding = steps.findIndex((step) => step.added > 0);
    expect(firstAdding).toBeGreaterThan(0);
    expect(steps.slice(0, firstAdding).every((step) => step.parsed === 1 && step.added === 0)).toBe(true);
    expect(steps.at(-1)?.remaining).toBe(0);
    const lackingAtStart = steps[0]!.remaining;
    expect(steps.reduce((sum, step) => sum + step.added, 0)).toBe(lackingAtStart);
    expect(program.warmStep({ maxFiles: 2, maxMilliseconds: 0 })).toEqual({
      parsed: 0,
      added: 0,
      remaining: 0,
    });
  });

  it('does nothing in whole-repo scope, whose program holds every file', async () => {
    const { program } = await programOver('whole-repo');
    expect(program.warmStep({ maxFiles: 100, maxMilliseconds: 100 })).toEqual({
      parsed: 0,
      added: 0,
      remaining: 0,
    });
  });
});
