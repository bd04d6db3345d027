#!/usr/bin/env node
import type { CliIo } from './cli-io.js';
import { exitCodes } from './cli-io.js';
import { runCli } from './run-cli.js';
import { colorEnabled } from './terminal-style.js';

let interrupt: AbortController | undefined;

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stdoutIsTty: process.stdout.isTTY === true,
  stderrIsTty: process.stderr.isTTY === true,
  colors: {
    stdout: colorEnabled(process.stdout, process.env),
    stderr: colorEnabled(process.stderr, process.env),
  },
  columns: () => (process.stderr.isTTY === true ? process.stderr.columns : undefined),
  env: process.env,
  trapInterrupts: () => {
    if (interrupt === undefined) {
      const controller = new AbortController();
      interrupt = controller;
      const onInterrupt = (): void => {
        process.off('SIGINT', onInterrupt);
        // The second Ctrl-C does not wait for the clean stop: with the default action back, it ends
        // the process at once, as a signal (exit status 130), even where process.exit() would wait
        // for a write stuck in the thread pool.
        controller.abort(new Error('Interrupted with Ctrl-C'));
      };
      process.on('SIGINT', onInterrupt);
    }
    return interrupt.signal;
  },
};

runCli(process.argv.slice(2), io).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`tool-orchestrator: ${String(error)}\n`);
    process.exitCode = exitCodes.failure;
  },
);
