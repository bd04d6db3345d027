import { spawnGit } from './git-process.js';
import type { GitProcessResult, SpawnGitOptions } from './git-process.js';

/** What {@link gitConfigOverrides} found: `-c` options to pass, or why the config could not be read. */
export type ConfigOverrides =
  | { readonly type: 'overrides'; readonly options: readonly string[] }
  | { readonly type: 'failed'; readonly result: GitProcessResult };

/** Config keys whose values are commands or transport policies a repository can set. */
const configuredKeysPattern = '^(filter|protocol)\\.';

/**
 * Reads which `filter.<name>.*` and `protocol.<name>.allow` keys are configured (repo,
 * included and global config; system config is off) and returns `-c` options that
 * override them: every filter gets empty `clean`/`smudge`/`process` commands and
 * `required=false`, so git runs no filter program (a `.gitattributes` line such as
 * `*.ts filter=x` would otherwise run `filter.x.clean` on a plain `git diff`); every
 * per-protocol `allow` becomes `never`, on top of `protocol.allow=never`.
 *
 * @throws {Error} when a name cannot be overridden with `-c` (it holds
 *   `=` or a line break, which `-c name=value` would split differently).
 */
export async function gitConfigOverrides(cwd: string, options: SpawnGitOptions): Promise<ConfigOverrides> {
  const result = await spawnGit(
    cwd,
    ['config', '--null', '--name-only', '--get-regexp', configuredKeysPattern],
    {
      ...options,
      maxOutputBytes: 1024 * 1024,
    },
  );
  // Exit code 1 means no key matched; outside a repository only global config is read,
  // and the command that follows fails with its own, clearer message. Anything else (an
  // unreadable config, a timeout) stops here: git must not run with overrides missing.
  if (result.type !== 'exited' || (result.exitCode !== 0 && result.exitCode !== 1)) {
    return { type: 'failed', result };
  }
  if (result.truncated) {
    throw new Error(
      'The repository git config defines more than 1 MiB of filter and protocol keys, so git was not run. ' +
        'Use list_files, read_file and search_text instead.',
    );
  }
  const overrides = new Set<string>();
  for (const key of result.stdout.split('\0')) {
    const filter = /^filter\.([\s\S]+)\.[^.]+$/.exec(key);
    const protocol = /^protocol\.([\s\S]+)\.allow$/.exec(key);
    const name = filter?.[1] ?? protocol?.[1];
    if (name === undefined) continue;
    if (/[=\r\n]/.test(name)) {
      throw new Error(
        `The repository git config sets ${JSON.stringify(key)}, a name that cannot be safely overridden, so git was not run. ` +
          'Use list_files, read_file and search_text instead.',
      );
    }
    if (filter !== null) {
      for (const field of ['clean', 'smudge', 'process']) overrides.add(`filter.${name}.${field}=`);
      overrides.add(`filter.${name}.required=false`);
    } else {
      overrides.add(`protocol.${name}.allow=never`);
    }
  }
  return { type: 'overrides', options: [...overrides].flatMap((override) => ['-c', override]) };
}
