/**
 * `npm --prefix bench run profile -- loop <library> <scenario>` (a loop child) or
 * `npm --prefix bench run profile -- wire <ours|openai runTools>` (the 20-turn run over local HTTP):
 * runs one child under `--cpu-prof` and prints the functions and files with the most self time.
 * Build the children first with any `npm run bench` run.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

const [kind = 'loop', library = 'ours', scenario = 'S1'] = process.argv.slice(2);
const directory = mkdtempSync(join(tmpdir(), 'bench-profile-'));
const child = fileURLToPath(
  new URL(`../results/.build/${kind === 'wire' ? 'stream-child' : 'loop-child'}.mjs`, import.meta.url),
);
const options =
  kind === 'wire'
    ? {
        mode: 'run',
        library,
        contentTokens: 10,
        argumentFragments: 2,
        chunkIntervalMs: 1,
        warmupAnswers: 0,
        answers: 0,
        runToolTurns: 20,
        warmupMs: 1000,
        timedMs: 4000,
        minTimedRuns: 5,
      }
    : {
        library,
        scenarios: [scenario],
        warmupMs: 1000,
        minWarmupRuns: 3,
        timedMs: 4000,
        minTimedRuns: 5,
        allocationRuns: 1,
      };
const run = spawnSync(
  process.execPath,
  ['--expose-gc', '--no-warnings', '--cpu-prof', '--cpu-prof-dir', directory, child, JSON.stringify(options)],
  { encoding: 'utf8' },
);
if (run.status !== 0) throw new Error(`the profiled child failed: ${run.stderr}`);
process.stdout.write(run.stdout);
const file = readdirSync(directory).find((name) => name.endsWith('.cpuprofile'));
if (file === undefined) throw new Error('no .cpuprofile was written');
const profile = JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<string, number>();
const byFile = new Map<string, number>();
let total = 0;
for (let index = 0; index < profile.samples.length; index++) {
  const node = byId.get(profile.samples[index]!)!;
  const delta = profile.timeDeltas[index] ?? 0;
  total += delta;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*\/(dist|bench)\//, '$1/');
  const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
  selfTime.set(key, (selfTime.get(key) ?? 0) + delta);
  const bucket = url === '' ? functionName : where.split(':')[0]!;
  byFile.set(bucket, (byFile.get(bucket) ?? 0) + delta);
}
const top = (map: Map<string, number>, count: number): string =>
  [...map.entries()]
    .sort((left, right) => right[1] - left[1])
    .slice(0, count)
    .map(([key, value]) => `${((100 * value) / total).toFixed(1).padStart(5)}%  ${key}`)
    .join('\n');
process.stdout.write(
  `\nSelf time by function (${profile.samples.length} samples, ${(total / 1000).toFixed(0)} ms):\n${top(selfTime, 30)}\n`,
);
process.stdout.write(
  `\nSelf time by file or category:\n${top(byFile, 15)}\n\nProfile: ${join(directory, file)}\n`,
);
