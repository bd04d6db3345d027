import { InvalidArgumentError } from '../../../errors/invalid-argument-error.js';

/**
 * Variables a test runner or linter needs to work at all, and that hold no secrets: where
 * programs are (`PATH`, `PATHEXT`), who and where the user is (`HOME`, `USERPROFILE`), the
 * locale and terminal, temporary directories, `CI`, and the Windows system folders that
 * Node, Python and cmd.exe look up. Left out on purpose: `NODE_ENV` (runners set their own; a
 * host's `production` would change what the tests do), `NODE_OPTIONS` (it can preload the
 * host's code), proxy URLs (they can carry credentials), `npm_config_*` (registry tokens),
 * `FORCE_COLOR` (escape codes in text meant for a model) and every key or token.
 */
const defaultInheritedNames: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'TERM',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  'CI',
  'NO_COLOR',
  // Windows.
  'PATHEXT',
  'ComSpec',
  'SystemRoot',
  'SystemDrive',
  'windir',
  'USERPROFILE',
  'USERNAME',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramData',
  'ProgramFiles',
  'ProgramFiles(x86)',
  'ProgramW6432',
  'CommonProgramFiles',
  'CommonProgramFiles(x86)',
  'CommonProgramW6432',
  'ALLUSERSPROFILE',
  'PUBLIC',
  'OS',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
];

/** Prefixes of inherited names: `LC_ALL`, `LC_CTYPE` and the other locale categories. */
const defaultInheritedPrefixes: readonly string[] = ['LC_'];

/** Which of the host's variables a command gets: all of them, or the default names plus these. */
export type InheritedEnvironment =
  { readonly all: true } | { readonly all: false; readonly names: readonly string[] };

/**
 * Checks a `CommandSpec.inheritEnv` value, so a mistake fails when the provider is created.
 *
 * @throws InvalidArgumentError naming `argument` and the bad value, when `value` is not a
 *   boolean or an array of variable names (non-empty, without `=` or NUL).
 */
export function parseInheritEnv(value: unknown, argument: string): InheritedEnvironment {
  if (value === undefined || value === false) return { all: false, names: [] };
  if (value === true) return { all: true };
  if (!Array.isArray(value)) {
    throw new InvalidArgumentError({
      argument,
      value,
      message:
        "must be false (the default names only), true (the host's whole environment) or an array of " +
        "variable names to pass as well, e.g. ['VIRTUAL_ENV'].",
    });
  }
  value.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || name === '' || name.includes('=') || name.includes('\0')) {
      throw new InvalidArgumentError({
        argument: `${argument}[${index}]`,
        value: name,
        message:
          "must be an environment variable's name (a non-empty string without '=' or NUL), e.g. 'VIRTUAL_ENV'.",
      });
    }
  });
  return { all: false, names: [...(value as string[])] };
}

/** What {@link commandEnvironment} reads; the host's by default. */
export interface CommandEnvironmentOptions {
  readonly inherited: InheritedEnvironment;
  /** Variables set on top, which win over inherited ones. */
  readonly extra?: Readonly<Record<string, string>> | undefined;
  /** @default process.env */
  readonly hostEnvironment?: NodeJS.ProcessEnv;
  /** Names compare case-insensitively on `'win32'`, as Windows does. @default process.platform */
  readonly platform?: NodeJS.Platform;
}

/**
 * The environment a command runs with: the host's variables whose names are in the default
 * list (or start with `LC_`) or in `inherited.names`, or all of them when `inherited.all`;
 * then `extra` on top.
 */
export function commandEnvironment(options: CommandEnvironmentOptions): Record<string, string> {
  const hostEnvironment = options.hostEnvironment ?? process.env;
  const caseless = (options.platform ?? process.platform) === 'win32';
  const normalize = (name: string): string => (caseless ? name.toUpperCase() : name);
  const allowed = new Set(
    [...defaultInheritedNames, ...(options.inherited.all ? [] : options.inherited.names)].map(normalize),
  );
  const prefixes = defaultInheritedPrefixes.map(normalize);
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(hostEnvironment)) {
    if (value === undefined) continue;
    const key = normalize(name);
    if (options.inherited.all || allowed.has(key) || prefixes.some((prefix) => key.startsWith(prefix)))
      environment[name] = value;
  }
  return { ...environment, ...options.extra };
}
