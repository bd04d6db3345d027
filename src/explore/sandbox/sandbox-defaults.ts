/** Size and count caps of a {@link Sandbox}. */
export interface SandboxLimits {
  /** Files larger than this are refused for reading whole (read a line range instead). @default 2 MiB */
  maxFileBytes: number;
  /** The most files one walk visits before it stops and flags the listing truncated. @default 50_000 */
  maxFiles: number;
}

/** The limits a sandbox uses when the caller does not set them. */
export const defaultSandboxLimits: Readonly<SandboxLimits> = Object.freeze({
  maxFileBytes: 2 * 1024 * 1024,
  maxFiles: 50_000,
});

/**
 * The longest path, in characters, the sandbox accepts: Linux's `PATH_MAX`. Longer paths name
 * no file any system can open, and checking one costs time and stack in proportion to its
 * segments (20,000 segments overflowed the stack), so they are refused up front.
 */
export const maxSandboxPathLength = 4096;

/**
 * Secret-file patterns denied by default, matched case-insensitively against a path and each
 * of its parent directories (against the basename when they have no `/`), so a folder's
 * pattern covers everything below it. They name what a careful user expects never to reach a
 * model: environment files, private keys and certificates, SSH, GnuPG and password files,
 * shell and REPL histories, git-hosting, package-registry, cloud, container and infrastructure
 * tokens, and `.git` (its config holds remote URLs that often carry credentials; the git tools
 * run `git`, so they do not need to read it). Histories are matched as dotfiles (`.*_history`),
 * not `*_history`, which would also hide source files such as `order_history.py`. Pass `deny`
 * to change the list, e.g. the defaults without one pattern.
 */
export const defaultDenyPatterns: readonly string[] = Object.freeze([
  // Environment files, private keys and certificates.
  '.env*',
  '*.pem',
  '*.key',
  '*.p12',
  '*.pfx',
  '*.jks',
  '*.keystore',
  '*.ppk',
  // VPN profiles: they embed the client key and a shared TLS key.
  '*.ovpn',
  // SSH and GnuPG.
  'id_rsa*',
  'id_dsa*',
  'id_ecdsa*',
  'id_ed25519*',
  '.ssh',
  '.gnupg',
  // Login and password files.
  '.netrc',
  '_netrc',
  '.git-credentials',
  '.pgpass',
  '.my.cnf',
  '.mylogin.cnf',
  '.htpasswd',
  '*.kdbx',
  // Shell and REPL histories: commands typed with tokens and passwords in them.
  '.*_history',
  '.zhistory',
  '.histfile',
  'fish_history',
  // Git hosting.
  '**/.config/git/credentials',
  '**/.config/gh/hosts.yml',
  '**/.config/hub',
  // Package registries and build tools.
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pypirc',
  '**/.gem/credentials',
  '**/.cargo/credentials',
  '**/.cargo/credentials.toml',
  '**/.m2/settings.xml',
  '**/.m2/settings-security.xml',
  '**/.gradle/gradle.properties',
  '**/.composer/auth.json',
  '**/.config/composer/auth.json',
  // Cloud, containers and infrastructure.
  '.aws',
  '.azure',
  '**/.config/gcloud',
  'credentials.json',
  'service-account*.json',
  'service_account*.json',
  'serviceAccountKey*.json',
  'client_secret*.json',
  '.boto',
  '.kube',
  '**/.docker/config.json',
  '.dockercfg',
  '.s3cfg',
  '*.tfstate',
  '*.tfstate.backup',
  '.terraformrc',
  'terraform.rc',
  'credentials.tfrc.json',
  '.vault-token',
  // Git metadata.
  '.git',
]);

/**
 * Directory and file names hidden from listings and searches by default, matched against
 * each path segment below the root (so a root that is itself `node_modules/x` still works).
 */
export const defaultExcludedNames: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'dist',
  'build',
  'coverage',
  'out',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.cache',
  '.parcel-cache',
  '.venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.tox',
  '.gradle',
  '.idea',
  '.DS_Store',
]);
