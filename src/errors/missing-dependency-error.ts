import { ToolOrchestratorError } from './tool-orchestrator-error.js';

/** Options of {@link MissingDependencyError}. */
export interface MissingDependencyErrorOptions {
  /** The npm package that is missing or unusable, e.g. `'typescript'`. */
  readonly packageName: string;
  /** The versions that work, as an npm range, e.g. `'>=5.0.0 <7'`. */
  readonly versionRange: string;
  /** What needs the package, e.g. `'The code intelligence tools (get_symbols, ...)'`. */
  readonly neededFor: string;
  /** The command that installs a working version, e.g. `'npm install typescript@5'`. */
  readonly installCommand: string;
  /** Why it cannot be used when it is installed (a version outside the range). @default it is not installed */
  readonly problem?: string;
  readonly cause?: unknown;
}

/**
 * An optional peer dependency a feature needs is not installed (or not in a working version).
 * The message names the package, what needs it and the command that installs it. Code
 * `'missing_dependency'`.
 */
export class MissingDependencyError extends ToolOrchestratorError {
  readonly packageName: string;
  readonly versionRange: string;
  readonly installCommand: string;

  constructor(options: MissingDependencyErrorOptions) {
    const problem = options.problem ?? 'which is not installed';
    super('missing_dependency', {
      message:
        `${options.neededFor} need the package "${options.packageName}" (${options.versionRange}), ${problem}. ` +
        `Install it beside tool-orchestrator: ${options.installCommand}`,
      cause: options.cause,
    });
    this.packageName = options.packageName;
    this.versionRange = options.versionRange;
    this.installCommand = options.installCommand;
  }
}
