import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** Options of {@link startProcessGroup}. */
export interface StartProcessGroupOptions {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * A command started (never through a shell) as the leader of its own process group, so it and
 * every process it starts can be signalled together. On Windows, which has no process groups,
 * the group is the command's process tree as `taskkill /T` finds it.
 */
export interface ProcessGroup {
  /** The leader; stdin is closed, stdout and stderr are pipes. */
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Asks every process of the group to stop: SIGTERM on POSIX, `taskkill /T /F` on Windows (it has no polite signal). */
  terminate(): void;
  /** Stops every process of the group: SIGKILL on POSIX, `taskkill /T /F` on Windows. */
  kill(): void;
  /**
   * True while a process of the group may be alive. On Windows only the leader can be seen, so
   * processes the leader left behind after it exited are not found.
   */
  isAlive(): boolean;
}

/**
 * Starts `command` with `args` in a new process group (`detached` on POSIX, which makes the
 * child call `setsid`). A process that leaves the group itself (`setsid`, daemons) is beyond
 * its reach.
 *
 * @throws what `spawn` throws synchronously (e.g. an argument containing NUL); a command that
 *   cannot be started emits `error` on `child` instead.
 */
export function startProcessGroup(
  command: string,
  args: readonly string[],
  options: StartProcessGroupOptions,
): ProcessGroup {
  const windows = process.platform === 'win32';
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    shell: false,
    detached: !windows,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  return windows ? windowsTree(child) : posixGroup(child);
}

function posixGroup(child: ChildProcessByStdio<null, Readable, Readable>): ProcessGroup {
  // Once the group is seen empty its id may be reused, so it is never signalled again.
  let gone = child.pid === undefined;
  const signalGroup = (signal: NodeJS.Signals | 0): void => {
    if (gone || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch (error) {
      // EPERM: a member we may not signal (it changed user); it still counts as alive.
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') gone = true;
    }
  };
  return {
    child,
    terminate: () => signalGroup('SIGTERM'),
    kill: () => signalGroup('SIGKILL'),
    isAlive: () => {
      signalGroup(0);
      return !gone;
    },
  };
}

function windowsTree(child: ChildProcessByStdio<null, Readable, Readable>): ProcessGroup {
  const killTree = (): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const taskkill = spawn('taskkill', ['/pid', String(child.pid), '/T', '/F'], {
      stdio: 'ignore',
      windowsHide: true,
    });
    taskkill.on('error', () => child.kill());
  };
  return {
    child,
    terminate: killTree,
    kill: killTree,
    isAlive: () => child.pid !== undefined && child.exitCode === null && child.signalCode === null,
  };
}
