import { execFile } from 'node:child_process';

/** Runs `source` as an ES module in a fresh Node process (killed after 20 s) and resolves to its stdout. */
export function runModuleScript(source: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--input-type=module', '-e', source],
      { timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
}
