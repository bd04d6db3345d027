import { exitCodes } from './cli-io.js';

/** Options of {@link CommandFailure}. */
export interface CommandFailureOptions {
  /** `error.code` under `--json`, e.g. `'connection_error'` or `'interrupted'`. */
  readonly code: string;
  /** @default exitCodes.failure (1) */
  readonly exitCode?: number;
  /** Extra fields of the `--json` error object, e.g. what was found before an interrupt. */
  readonly details?: Record<string, unknown>;
  readonly cause?: unknown;
}

/**
 * A command ran and failed, with a message written for the person at the terminal (the URL it could
 * not reach, the variable to check). `runCli` prints it as is, or as `{"error": ...}` under `--json`.
 */
export class CommandFailure extends Error {
  override readonly name = 'CommandFailure';
  readonly code: string;
  readonly exitCode: number;
  readonly details: Record<string, unknown>;

  constructor(message: string, options: CommandFailureOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.exitCode = options.exitCode ?? exitCodes.failure;
    this.details = options.details ?? {};
  }
}
