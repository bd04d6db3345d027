import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exploreQuestions } from '../../../src/evals/presets/explore/explore-questions.js';
import {
  axiosVersionOfQuestions,
  exploreFixtureNames,
  resolveExploreRepository,
  type ExploreRepositoryName,
} from '../../../src/evals/presets/explore/explore-repositories.js';

const folders = new Map<ExploreRepositoryName, string>();
function folderOf(name: ExploreRepositoryName): string {
  const known = folders.get(name);
  if (known !== undefined) return known;
  const location = resolveExploreRepository(name);
  if (location.type === 'missing') throw new Error(location.reason);
  folders.set(name, location.folder);
  return location.folder;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

describe('exploreQuestions', () => {
  it('holds at least 30 questions with unique kebab-case ids', () => {
    expect(exploreQuestions.length).toBeGreaterThanOrEqual(30);
    const ids = exploreQuestions.map((question) => question.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('asks about axios and every fixture it names', () => {
    const repositories = new Set(exploreQuestions.map((question) => question.repository));
    expect(repositories.has('axios')).toBe(true);
    for (const repository of repositories) {
      expect(['axios', ...exploreFixtureNames]).toContain(repository);
    }
  });

  it.each(exploreQuestions.map((question) => [question.id, question] as const))(
    '%s: its files exist, are well formed, and the question and why are consistent with them',
    (_id, question) => {
      expect(question.expectedFiles.length).toBeGreaterThanOrEqual(1);
      expect(question.expectedFiles.length).toBeLessThanOrEqual(4);
      expect(question.tags.length).toBeGreaterThan(0);
      const acceptable = question.acceptableFiles ?? [];
      expect(acceptable.filter((file) => question.expectedFiles.includes(file))).toEqual([]);
      const folder = folderOf(question.repository);
      for (const file of [...question.expectedFiles, ...acceptable]) {
        expect(file, `${file} is repo-relative with forward slashes`).toMatch(/^(?!\.{0,2}\/)[^\\]+$/);
        expect(isFile(join(folder, file)), `${file} exists in ${question.repository}`).toBe(true);
      }
      for (const file of question.expectedFiles) {
        expect(question.question, 'the question does not name an expected file').not.toContain(file);
        expect(question.question, 'the question does not name an expected file').not.toContain(
          basename(file),
        );
        expect(question.why, 'the why says what in each expected file answers it').toContain(file);
      }
    },
  );

  const withLiteral = exploreQuestions.filter((question) => question.mustContain !== undefined);

  it('checks a literal for most questions', () => {
    expect(withLiteral.length).toBeGreaterThanOrEqual(30);
  });

  it.each(withLiteral.map((question) => [question.id, question] as const))(
    '%s: the first expected file still contains its literal',
    (_id, question) => {
      const [firstFile] = question.expectedFiles;
      if (firstFile === undefined || question.mustContain === undefined)
        throw new Error('no file or literal');
      const text = readFileSync(join(folderOf(question.repository), firstFile), 'utf8');
      expect(text).toContain(question.mustContain);
    },
  );

  it('were written against the installed axios version (re-read the axios questions after a bump)', () => {
    const location = resolveExploreRepository('axios');
    expect(location.type === 'found' ? location.version : location.reason).toBe(axiosVersionOfQuestions);
  });
});

describe('resolveExploreRepository', () => {
  const emptyFolder = mkdtempSync(join(tmpdir(), 'explore-repositories-'));
  afterAll(() => rmSync(emptyFolder, { recursive: true, force: true }));

  it('finds the installed axios package and every fixture of this checkout', () => {
    const axios = resolveExploreRepository('axios');
    expect(axios.type).toBe('found');
    expect(axios.type === 'found' && isFile(join(axios.folder, 'lib/core/Axios.js'))).toBe(true);
    for (const name of exploreFixtureNames) {
      const fixture = resolveExploreRepository(name);
      expect(fixture.type === 'found' ? fixture.folder : fixture.reason).toMatch(
        new RegExp(`test[\\\\/]fixtures[\\\\/]code-index[\\\\/]${name}$`),
      );
    }
  });

  it('reports a fixture outside a checkout as missing, with the reason', () => {
    const fixture = resolveExploreRepository('esm', { packageRoot: emptyFolder });
    expect(fixture.type).toBe('missing');
    expect(fixture.type === 'missing' && fixture.reason).toContain(
      'checkout of the tool-orchestrator repository',
    );
  });

  it('reports axios as missing with the install command when it cannot be resolved', () => {
    const axios = resolveExploreRepository('axios', { resolveFrom: join(emptyFolder, 'index.js') });
    expect(axios.type).toBe('missing');
    expect(axios.type === 'missing' && axios.reason).toContain(
      `npm install --save-dev axios@${axiosVersionOfQuestions}`,
    );
  });
});
