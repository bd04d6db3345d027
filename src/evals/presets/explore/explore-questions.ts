import { axiosQuestions } from './axios-questions.js';
import type { ExploreRepositoryName } from './explore-repositories.js';
import { fixtureQuestions } from './fixture-questions.js';

/**
 * One question of the exploration eval: what a developer would ask about a repository, and the
 * files a good answer must name. Answers were written by reading the code, not by running a model.
 */
export interface ExploreQuestion {
  /** Unique, kebab-case. */
  readonly id: string;
  /** The repository asked about; {@link resolveExploreRepository} finds its folder. */
  readonly repository: ExploreRepositoryName;
  /** The question in a developer's words; it does not name the expected files. */
  readonly question: string;
  /** Repo-relative paths a good answer must name: the 1 to 4 files where the answer lives. */
  readonly expectedFiles: readonly string[];
  /** Repo-relative paths that are fine to name but not required (type declarations, barrels, callers). */
  readonly acceptableFiles?: readonly string[];
  /** What kind of question it is: `where-defined`, `how-it-works`, `error-handling`, `config`, ... */
  readonly tags: readonly string[];
  /** What in the expected files answers the question, so a reviewer can check it. */
  readonly why: string;
  /** A literal that appears in the first expected file; the eval's tests check it is still there. */
  readonly mustContain?: string;
}

/**
 * The questions of the exploration eval: over the installed `axios` package (its `lib/` sources)
 * and the small code-index fixtures of this repository. Paths are relative to the repository
 * folder that {@link resolveExploreRepository} returns.
 */
export const exploreQuestions: readonly ExploreQuestion[] = [...axiosQuestions, ...fixtureQuestions];
