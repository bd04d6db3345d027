/** Where the CLI writes and what it knows about its terminal, so tests and other hosts can supply their own. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when stdout is a terminal. */
  readonly stdoutIsTty: boolean;
  /** True when stderr is a terminal: live progress is shown only then. */
  readonly stderrIsTty: boolean;
  /** Whether each stream may carry color codes; see {@link colorEnabled} for the rule. */
  readonly colors: { readonly stdout: boolean; readonly stderr: boolean };
  /** The width of the terminal on stderr, read at each use (it changes on resize); `undefined` off a terminal. */
  readonly columns: () => number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Starts handling Ctrl-C for a command that can stop cleanly: the first Ctrl-C aborts the returned
   * signal, a second one exits at once with code 130. Commands that never call it keep the default
   * (Ctrl-C ends the process).
   */
  readonly trapInterrupts: () => AbortSignal;
}

/**
 * Exit codes: 0 ok, 1 the command ran and failed, 2 bad usage (unknown command or flag, a bad flag
 * value, a missing API key, an unwritable `--trace` file), 130 interrupted by Ctrl-C (128 + SIGINT).
 */
export const exitCodes = { ok: 0, failure: 1, usage: 2, interrupted: 130 } as const;

/** Codes of usage errors, as `error.code` in `--json` output. */
export type UsageErrorCode =
  | 'unknown_command'
  | 'unknown_flag'
  | 'missing_flag_value'
  | 'invalid_flag_value'
  | 'missing_argument'
  | 'invalid_argument'
  | 'missing_api_key'
  | 'trace_file';

/** Options of {@link UsageError}. */
export interface UsageErrorOptions {
  readonly code: UsageErrorCode;
  /**
   * False when the message already says where to look (`...; see tool-orchestrator tool --help`), so
   * no help line is added under it.
   * @default true
   */
  readonly helpHint?: boolean;
}

/** A usage mistake: printed with a hint to the command's `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly code: UsageErrorCode;
  readonly helpHint: boolean;

  constructor(message: string, options: UsageErrorOptions) {
    super(message);
    this.code = options.code;
    this.helpHint = options.helpHint ?? true;
  }
}

/** The one shape of a failure under `--json`: `{"error": {"code", "message", ...details}}` on stdout. */
export function jsonError(code: string, message: string, details: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ error: { code, message, ...details } })}\n`;
}
