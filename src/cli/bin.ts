#!/usr/bin/env node
import type { CliIo } from './cli-io.js';
import { exitCodes } from './cli-io.js';
import { runCli } from './run-cli.js';

const io: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  stderrIsTty: process.stderr.isTTY === true,
  env: process.env,
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
