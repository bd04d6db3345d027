/**
 * A conformance run in its own process: `tsx conformance-child.ts '<json>'`, the JSON a
 * {@link ChildRequest}. It starts or resumes the run with a FileCheckpointStore and prints one JSON
 * line: the run's stop reason, content, pending approvals and transcript. With `start`, the
 * `hang` tool prints `HANG` and never finishes, so the parent can SIGKILL the process mid-run.
 */
import { FileCheckpointStore, ToolOrchestrator } from '../../../src/index.js';
import { conformanceTarget } from './conformance-targets.js';
import type { TargetConnection } from './conformance-targets.js';
import { hangTool, lookup, remove } from './conformance-tools.js';

/** What the parent asks of the child. */
export interface ChildRequest {
  readonly target: string;
  readonly connection: TargetConnection;
  readonly directory: string;
  readonly mode: 'start' | 'resume';
  readonly runId: string;
  readonly prompt: string;
  readonly approvals?: Readonly<Record<string, { readonly approved: boolean }>>;
}

const request = JSON.parse(process.argv[2] ?? '{}') as ChildRequest;
const target = conformanceTarget(request.target);
// Against the real API the key comes from the environment, never from the command line.
const apiKey = request.connection.apiKey || (process.env[target.live?.keyVariable ?? ''] ?? '');
const adapter = target.createAdapter({ ...request.connection, apiKey });
const orchestrator = new ToolOrchestrator(
  adapter,
  { lookup, remove, hang: hangTool(() => request.mode === 'start') },
  { checkpointStore: new FileCheckpointStore({ dir: request.directory }), maxTurns: 8 },
);
const result =
  request.mode === 'start'
    ? await orchestrator.run([{ role: 'user', content: request.prompt }], undefined, { runId: request.runId })
    : await orchestrator.resume(
        request.runId,
        request.approvals === undefined ? {} : { approvals: request.approvals },
      );
process.stdout.write(
  `${JSON.stringify({
    stopReason: result.stopReason,
    content: result.content,
    pendingApprovals: result.pendingApprovals ?? [],
    messages: result.messages,
  })}\n`,
);
