import type { ContextWindowOptions } from '../../orchestrator/context-window/context-window-options.js';
import { InvalidArgumentError } from '../../errors/invalid-argument-error.js';
import { Sandbox } from '../../explore/sandbox/sandbox.js';
import type { ModelAdapter } from '../../model/model-adapter.js';
import type { OutputOptions } from '../../orchestrator/output/output-options.js';
import { ToolOrchestrator } from '../../orchestrator/tool-orchestrator.js';
import type { ToolRegistry } from '../../tools/define-tool.js';
import type { TraceEmitter } from '../../tracing/trace-events.js';
import { createDefaultCodeTools } from '../shared/default-code-tools.js';
import { flowContextWindow } from '../shared/flow-context-window.js';
import { explorerDepthTurns } from './explorer-depth.js';
import type { ExplorerDepth } from './explorer-depth.js';
import { explorerReportRequest, explorerSystemPrompt } from './explorer-prompt.js';
import { ExplorerReportSchema } from './explorer-report-schema.js';
import { createGrepRepoTool } from './grep-repo-tool.js';

/** What {@link createExplorerAgent} builds the explorer from: the options shared by `runExplorer` and `explore_codebase`. */
export interface ExplorerAgentOptions {
  readonly adapter: ModelAdapter;
  readonly root: string;
  readonly directory?: string | undefined;
  readonly hints?: readonly string[] | undefined;
  readonly files?: readonly string[] | undefined;
  readonly depth?: ExplorerDepth | undefined;
  readonly maxTurns?: number | undefined;
  readonly stream?: boolean | undefined;
  readonly repair?: boolean | undefined;
  readonly timeoutMs?: number | undefined;
  readonly contextWindow?: ContextWindowOptions | boolean | undefined;
  readonly tools?: ToolRegistry | undefined;
  /** The child's own sink and parent run id, for a child that does not run inside a calling run. */
  readonly traceEmitter?: TraceEmitter | undefined;
  readonly parentRunId?: string | undefined;
}

/** An explorer ready to run: its orchestrator, system prompt, report output and time limit. */
export interface ExplorerAgent {
  /** A child allowed exactly `read_file` and `grep_repo`. */
  readonly orchestrator: ToolOrchestrator;
  readonly systemPrompt: string;
  /** The report as the run's typed output. */
  readonly output: OutputOptions<typeof ExplorerReportSchema>;
  /** Milliseconds before the run is aborted; 0 means no limit. */
  readonly timeoutMs: number;
}

/**
 * Checks the explorer's options and builds its child orchestrator. At the budget of turns the
 * core's typed output makes one more call with tools off that asks for the report, after
 * {@link explorerReportRequest}.
 *
 * @throws {InvalidArgumentError} for a bad depth, maxTurns or timeout, tools without
 * `read_file` and `search_text`, or a `directory` outside `root`.
 */
export async function createExplorerAgent(options: ExplorerAgentOptions): Promise<ExplorerAgent> {
  const depth = options.depth ?? 'normal';
  const depthTurns = explorerDepthTurns[depth];
  if (depthTurns === undefined) {
    throw new InvalidArgumentError({
      argument: 'depth',
      value: depth,
      message: 'must be "shallow", "normal" or "deep".',
    });
  }
  const maxTurns = options.maxTurns ?? depthTurns;
  if (!Number.isInteger(maxTurns) || maxTurns < 1) {
    throw new InvalidArgumentError({
      argument: 'maxTurns',
      value: maxTurns,
      message: 'must be a positive integer, or left out to use the depth budget.',
    });
  }
  const timeoutMs = options.timeoutMs ?? 0;
  if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
    throw new InvalidArgumentError({
      argument: 'timeout_ms',
      value: timeoutMs,
      message: 'must be 0 (no limit) or a positive number of milliseconds.',
    });
  }
  const sandbox = new Sandbox({ root: options.root });
  const directory =
    options.directory === undefined ? undefined : await checkDirectory(sandbox, options.directory);
  const codeTools = options.tools ?? createDefaultCodeTools({ root: options.root, sandbox });
  const readFile = codeTools.read_file;
  const searchText = codeTools.search_text;
  if (readFile === undefined || searchText === undefined) {
    throw new InvalidArgumentError({
      argument: 'tools',
      value: Object.keys(codeTools),
      message: 'must hold read_file and search_text.',
    });
  }
  const registry: ToolRegistry = {
    read_file: readFile,
    grep_repo: createGrepRepoTool(searchText, directory),
  };
  const orchestrator = new ToolOrchestrator(options.adapter, registry, {
    maxTurns,
    finalAnswerPrompt: explorerReportRequest,
    contextWindow: flowContextWindow(options.contextWindow, options.adapter),
    ...(options.stream === undefined ? {} : { stream: options.stream }),
    ...(options.traceEmitter === undefined ? {} : { traceEmitter: options.traceEmitter }),
    ...(options.parentRunId === undefined ? {} : { parentRunId: options.parentRunId }),
  });
  return {
    orchestrator,
    systemPrompt: explorerSystemPrompt({
      directory,
      hints: options.hints,
      files: options.files,
      maxTurns,
    }),
    output: {
      schema: ExplorerReportSchema,
      name: 'ExplorerReport',
      description: 'Your report: the findings with their evidence, open questions and the next action.',
      ...(options.repair === undefined ? {} : { repair: options.repair }),
    },
    timeoutMs,
  };
}

async function checkDirectory(sandbox: Sandbox, directory: string): Promise<string> {
  let stats;
  try {
    stats = await sandbox.stat(sandbox.relative(sandbox.resolve(directory)));
  } catch (error) {
    throw new InvalidArgumentError({
      argument: 'directory',
      value: directory,
      message: `must be an existing directory inside the repository root ${sandbox.root} (${error instanceof Error ? error.message : String(error)}).`,
    });
  }
  if (!stats.isDirectory) {
    throw new InvalidArgumentError({
      argument: 'directory',
      value: directory,
      message: 'is a file; pass a directory, or list it in files.',
    });
  }
  return sandbox.relative(sandbox.resolve(directory));
}
