import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startFakeOpenAIServer } from '../adapters/fake-openai-server.js';
import type { FakeOpenAIServer } from '../adapters/fake-openai-server.js';

/** A valid explorer report about the fixture's `a.ts`. */
export const explorerReport = {
  question: 'What is a?',
  inferredUserGoal: null,
  confidence: 0.9,
  repoMap: { entrypoints: ['a.ts'], keyDirs: [], configs: [], commands: [] },
  findings: [{ summary: 'a is 1', evidence: [{ file: 'a.ts', lines: '1', excerpt: 'export const a = 1;' }] }],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};

/** What {@link useExploreFixture} gives each test: read its fields inside the test, not at import. */
export interface ExploreFixture {
  /** A temp repository holding `a.ts`, shared by the file's tests. */
  readonly repo: string;
  /** A fake OpenAI server of the current test: a new one per test, so no answer queued by one test reaches the next. */
  readonly server: FakeOpenAIServer;
}

/** Registers the hooks that make a temp repository for the file and a fake server for each test. */
export function useExploreFixture(prefix: string): ExploreFixture {
  let repo: string | undefined;
  let server: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    repo = await mkdtemp(join(tmpdir(), prefix));
    await writeFile(join(repo, 'a.ts'), 'export const a = 1;\n');
  });
  afterAll(async () => {
    if (repo !== undefined) await rm(repo, { recursive: true, force: true });
  });
  beforeEach(async () => {
    server = await startFakeOpenAIServer();
  });
  afterEach(async () => {
    await server?.close();
  });
  return {
    get repo() {
      if (repo === undefined) throw new Error('the fixture repository exists only inside tests');
      return repo;
    },
    get server() {
      if (server === undefined) throw new Error('the fake server exists only inside tests');
      return server;
    },
  };
}
