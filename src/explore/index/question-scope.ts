import type { IndexContext } from './index-context.js';
import { isScriptFile } from './languages.js';
import type { ModuleResolver } from './modules/module-resolver.js';
import type { ProjectFiles } from './project-files.js';
import { RecordingFiles } from './recording-files.js';
import type { ScriptContext } from './script-context.js';
import type { SourceTexts } from './source-texts.js';

/** What a question in `question` scope reads: the index's files, their texts, and the program. */
export interface QuestionScopeSources {
  readonly files: ProjectFiles;
  readonly texts: SourceTexts;
  readonly resolver: ModuleResolver;
  /** The language service's navigation over a snapshot, the program made to include `scripts`. */
  scriptContext(
    snapshot: Omit<IndexContext, 'scripts'>,
    scripts: readonly string[],
    program: Pick<ScriptContext, 'scriptFilesMentioning' | 'missing'>,
  ): Promise<IndexContext>;
}

/** A question: the words its answer's files must mention, and the file or folder it names. */
export interface Question {
  readonly words: readonly string[];
  readonly path: string | undefined;
  readonly signal: AbortSignal | undefined;
}

/**
 * Runs a question on the files whose text mentions one of its words (and the files of its
 * path): only those are parsed and added to the program. A file the question reaches beyond
 * them (a declaration an import leads to, a renamed re-export's users) is parsed and the
 * question asked again, until it reaches nothing new, so the answer is the whole repository's.
 */
export async function askInQuestionScope<T>(
  sources: QuestionScopeSources,
  question: Question,
  run: (context: IndexContext) => T | Promise<T>,
): Promise<T> {
  const { files: projectFiles, texts, resolver } = sources;
  const { words, path, signal } = question;
  const known = projectFiles.versions();
  const extra = new Set<string>(path !== undefined && known.has(path) ? [path] : []);
  await texts.prepare(words, signal);
  for (;;) {
    // `default` names what `module.exports =` and `export =` declare, words a text need not hold.
    const mentioned = new Set(
      words.includes('default') ? known.keys() : texts.containing(known.keys(), words),
    );
    const wanted = [...known.keys()].filter((file) => mentioned.has(file) || extra.has(file));
    const files = await projectFiles.parseSome(wanted, signal);
    const missed = new Set<string>();
    const miss = (file: string): void => {
      if (known.has(file) && !extra.has(file) && !mentioned.has(file)) missed.add(file);
    };
    const snapshot = { files, byPath: new RecordingFiles(files, miss), resolver };
    const scripts = wanted.filter(isScriptFile);
    const context =
      projectFiles.scriptFiles().length === 0
        ? snapshot
        : await sources.scriptContext(snapshot, scripts, {
            scriptFilesMentioning: (name) => texts.containing(projectFiles.scriptFiles(), [name]),
            missing: miss,
          });
    const answer = await run(context);
    if (missed.size === 0) return answer;
    for (const file of missed) extra.add(file);
  }
}
