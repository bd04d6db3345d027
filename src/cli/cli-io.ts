/** Where the CLI writes, so tests and other hosts can capture it. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** True when stderr is a terminal: live progress is shown only then. */
  readonly stderrIsTty: boolean;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes: 0 ok, 1 the command ran and failed, 2 bad usage (unknown command, bad flag, missing key). */
export const exitCodes = { ok: 0, failure: 1, usage: 2 } as const;

/** A usage mistake: printed with a hint to `--help`, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
