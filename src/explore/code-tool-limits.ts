import type { Sandbox } from './sandbox/sandbox.js';
import type { SandboxLimits } from './sandbox/sandbox-defaults.js';

/** Caps shared by the exploration tools, on top of the sandbox's own. */
export interface CodeToolLimits extends SandboxLimits {
  /** The most characters one tool result may hold; longer output is cut with a note on how to get the rest. @default 40_000 (about 10k tokens) */
  maxOutputChars: number;
  /** Milliseconds a `search_text` run may take before its worker is terminated. @default 5_000 */
  searchTimeoutMs: number;
  /** Milliseconds a git command may take before it is killed. @default 10_000 */
  gitTimeoutMs: number;
  /** Bytes of output a git command may produce before it is stopped. @default 10 MiB */
  gitMaxBufferBytes: number;
}

/** The tool limits used when the caller does not set them; sandbox limits come from the sandbox. */
export const defaultCodeToolLimits: Readonly<Omit<CodeToolLimits, keyof SandboxLimits>> = Object.freeze({
  maxOutputChars: 40_000,
  searchTimeoutMs: 5_000,
  gitTimeoutMs: 10_000,
  gitMaxBufferBytes: 10 * 1024 * 1024,
});

/** What every exploration tool factory takes: the sandbox it reads through and optional limits. */
export interface CodeToolFactoryOptions {
  readonly sandbox: Sandbox;
  readonly limits?: Partial<CodeToolLimits>;
  /**
   * How `search_text` may use ripgrep: `true` runs `rg` from `PATH` when it is there, `false`
   * never runs it, a string is the `rg` executable to run. Ripgrep only picks which of the
   * sandbox's visible files can match; the answer is the same with or without it. Nothing is
   * ever downloaded: without ripgrep, the built-in search reads every file.
   * @default false (the built-in search, with its cached listing, measured faster)
   */
  readonly ripgrep?: boolean | string;
}

/** Fills in the defaults: the sandbox's limits, then the tool defaults, then the caller's overrides. */
export function resolveCodeToolLimits(options: CodeToolFactoryOptions): Readonly<CodeToolLimits> {
  return Object.freeze({ ...options.sandbox.limits, ...defaultCodeToolLimits, ...options.limits });
}
