import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** What a fresh tsserver is asked: `navto` (where a name is declared, an editor's "go to symbol in workspace") or `references` at a declaration. */
export type TsserverRequest = 'navto' | 'references';

export interface TsserverFirstAnswerOptions {
  readonly root: string;
  /** The repo-relative file the editor opens; its project (nearest tsconfig) is the one loaded. */
  readonly file: string;
  /** The name asked for; `references` asks at its first declaration `class|function|interface|type|const name` in `file`. */
  readonly name: string;
  readonly request: TsserverRequest;
  /** @default 300_000 */
  readonly timeoutMs?: number;
}

export interface TsserverFirstAnswer {
  /** From spawning the server to its answer: Node's start, loading TypeScript, the project and the request. */
  readonly ms: number;
  /** How many items the answer held (symbols for `navto`, reference spans for `references`). */
  readonly count: number;
  /** The server process's peak resident set (VmHWM), when /proc has it. */
  readonly peakRssMb: number | undefined;
}

const require = createRequire(import.meta.url);

/** The TypeScript version whose tsserver is timed (the bench's own `typescript`). */
export function tsserverVersion(): string {
  return (require('typescript/package.json') as { version: string }).version;
}

/**
 * Times one first answer of a fresh tsserver, the language service our definitions and
 * references must agree with: it opens `file` (loading its tsconfig project) and asks one
 * request. The server is killed after the answer, or when `timeoutMs` passes (a rejection).
 */
export function tsserverFirstAnswer(options: TsserverFirstAnswerOptions): Promise<TsserverFirstAnswer> {
  const file = join(options.root, options.file);
  const lines = readFileSync(file, 'utf8').split('\n');
  const declaration = new RegExp(`\\b(?:class|function|interface|type|const|let|enum)\\s+${options.name}\\b`);
  const lineIndex = lines.findIndex((line) => declaration.test(line));
  if (options.request === 'references' && lineIndex === -1)
    return Promise.reject(new Error(`no declaration of ${options.name} in ${options.file}`));
  const started = performance.now();
  const server = spawn(
    process.execPath,
    [require.resolve('typescript/lib/tsserver.js'), '--disableAutomaticTypingAcquisition'],
    { cwd: options.root, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  const requests = [
    { seq: 1, type: 'request', command: 'open', arguments: { file } },
    options.request === 'navto'
      ? {
          seq: 2,
          type: 'request',
          command: 'navto',
          arguments: { file, searchValue: options.name, maxResultCount: 500 },
        }
      : {
          seq: 2,
          type: 'request',
          command: 'references',
          arguments: {
            file,
            line: lineIndex + 1,
            offset: (lines[lineIndex] ?? '').indexOf(options.name) + 1,
          },
        },
  ];
  for (const request of requests) server.stdin.write(`${JSON.stringify(request)}\n`);
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: TsserverFirstAnswer | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      server.stdout.removeAllListeners('data');
      server.kill('SIGKILL');
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const timer = setTimeout(
      () => finish(new Error(`tsserver gave no answer in ${options.timeoutMs ?? 300_000} ms`)),
      options.timeoutMs ?? 300_000,
    );
    server.once('error', (error) => finish(error));
    server.once('exit', (code) => finish(new Error(`tsserver exited (${code}) before answering`)));
    server.stdout.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      // Messages are `Content-Length: N\r\n\r\n` and N bytes of JSON.
      for (;;) {
        const text = buffered.toString('latin1', 0, Math.min(buffered.length, 64));
        const header = /^Content-Length: (\d+)\r\n\r\n/.exec(text);
        if (header === null) return;
        const end = header[0].length + Number(header[1]);
        if (buffered.length < end) return;
        const message = JSON.parse(buffered.toString('utf8', header[0].length, end)) as {
          type: string;
          request_seq?: number;
          success?: boolean;
          message?: string;
          body?: unknown;
        };
        buffered = buffered.subarray(end);
        if (message.type !== 'response' || message.request_seq !== 2) continue;
        const ms = performance.now() - started;
        if (message.success !== true) {
          finish(new Error(`tsserver ${options.request} failed: ${message.message ?? 'no message'}`));
          return;
        }
        const body = message.body as { refs?: unknown[] } | unknown[] | undefined;
        const count = Array.isArray(body) ? body.length : (body?.refs?.length ?? 0);
        finish({ ms, count, peakRssMb: peakRssOf(server.pid) });
        return;
      }
    });
  });
}

function peakRssOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /VmHWM:\s+(\d+)/.exec(status)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) / 1024;
  } catch {
    return undefined;
  }
}
