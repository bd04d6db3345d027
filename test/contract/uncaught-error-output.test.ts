import { execFile } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// An uncaught error from the package, as Node prints it: the source line of the throwing frame,
// a caret under it, then the error. From dist/ (run `npx tsup` after changing src/ or
// tsup.config.ts), that line is a line of the built file, so it must be a readable one.
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const deadlineMs = 30_000;
const maxStderrBytes = 4_096;
const maxLineLength = 300;

interface Outcome {
  readonly exitCode: number | null;
  readonly stderr: string;
}

/** Runs `args` in a fresh Node without the API keys, killed at the deadline. */
function runNode(args: readonly string[]): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  delete env.OPENAI_API_KEY;
  delete env.DEEPSEEK_API_KEY;
  return new Promise((resolve) => {
    execFile(process.execPath, [...args], { env, timeout: deadlineMs }, (error, _stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ exitCode, stderr });
    });
  });
}

const esm = (file: string): string => JSON.stringify(pathToFileURL(`${dist}${file}`).href);
const cjs = (file: string): string => JSON.stringify(`${dist}${file}`);

const cases = [
  {
    name: 'ESM: an adapter without an API key',
    error: 'MissingApiKeyError',
    args: [
      '--input-type=module',
      '-e',
      `import { OpenAIAdapter } from ${esm('openai.js')};\nnew OpenAIAdapter({ model: 'x' });`,
    ],
  },
  {
    name: 'ESM: run() given a string instead of messages',
    error: 'InvalidArgumentError',
    args: [
      '--input-type=module',
      '-e',
      `import { ToolOrchestrator } from ${esm('index.js')};
import { ScriptedAdapter } from ${esm('testing.js')};
await new ToolOrchestrator(new ScriptedAdapter([]), {}).run('hello');`,
    ],
  },
  {
    name: 'CommonJS: an adapter without an API key',
    error: 'MissingApiKeyError',
    args: [
      '-e',
      `const { DeepSeekAdapter } = require(${cjs('deepseek.cjs')});\nnew DeepSeekAdapter({ model: 'x' });`,
    ],
  },
  {
    name: 'CommonJS: run() given a string instead of messages',
    error: 'InvalidArgumentError',
    args: [
      '-e',
      `const { ToolOrchestrator } = require(${cjs('index.cjs')});
const { ScriptedAdapter } = require(${cjs('testing.cjs')});
new ToolOrchestrator(new ScriptedAdapter([]), {}).run('hello');`,
    ],
  },
];

describe('an uncaught error from the built package prints a short, readable report', () => {
  for (const { name, error, args } of cases) {
    it(`${name}: ${error}, the throwing line of dist/ and no line over ${maxLineLength} characters`, async () => {
      const { exitCode, stderr } = await runNode(args);
      expect(exitCode).toBe(1);
      expect(stderr).toContain(`${error}: `);
      // Node shows where it was thrown: a file of dist/ with its line.
      expect(stderr).toMatch(/dist[\\/][\w-]+\.c?js:\d+/);
      const longestLine = Math.max(...stderr.split('\n').map((line) => line.length));
      expect(Buffer.byteLength(stderr), 'bytes of stderr').toBeLessThan(maxStderrBytes);
      expect(longestLine, 'characters of its longest line').toBeLessThanOrEqual(maxLineLength);
    });
  }
});
