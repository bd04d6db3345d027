import { fileURLToPath } from 'node:url';

/** The hand-written stdio server of `fixtures/raw-mcp-server.mjs`, in one of its modes. */
export function rawServer(mode: 'well-behaved' | 'silent' | 'exit-early' | 'flood' | 'stubborn'): {
  command: string;
  args: string[];
} {
  return {
    command: process.execPath,
    args: [fileURLToPath(new URL('fixtures/raw-mcp-server.mjs', import.meta.url)), mode],
  };
}

/** True while a process with this pid exists. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Collects a child's stderr and reads the `pid=N` line the fixture servers print first. */
export function stderrCollector(): {
  onStderr: (text: string) => void;
  text: () => string;
  pid: () => number | undefined;
} {
  let text = '';
  return {
    onStderr: (chunk) => {
      text += chunk;
    },
    text: () => text,
    pid: () => {
      const match = /pid=(\d+)/.exec(text);
      return match === null ? undefined : Number(match[1]);
    },
  };
}
