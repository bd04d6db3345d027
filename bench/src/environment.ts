import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);

/** The installed version of a package, read from its package.json. */
export function packageVersion(name: string): string {
  try {
    const main = require.resolve(name);
    let directory = main;
    for (;;) {
      const parent = directory.slice(0, directory.lastIndexOf('/'));
      if (parent === directory || parent === '') return 'unknown';
      directory = parent;
      try {
        const manifest = JSON.parse(readFileSync(`${directory}/package.json`, 'utf8')) as {
          name?: string;
          version?: string;
        };
        if (manifest.name === name) return manifest.version ?? 'unknown';
      } catch {
        // No package.json at this level; keep walking up.
      }
    }
  } catch {
    return 'not installed';
  }
}

/** Machine and versions, as markdown lines. */
export function describeEnvironment(): string[] {
  const cpus = os.cpus();
  return [
    `- Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, ${os.type()} ${os.release()}, load average ${os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')} at start`,
    `- Node ${process.version}`,
    `- tool-orchestrator ${packageVersion('tool-orchestrator')} (this repository's dist/), ai ${packageVersion('ai')}, @openai/agents ${packageVersion(
      '@openai/agents',
    )}, openai ${packageVersion('openai')}, zod ${packageVersion('zod')}`,
  ];
}
