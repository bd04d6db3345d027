import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entries = {
  'tool-orchestrator': 'index.js',
  'tool-orchestrator/testing': 'testing.js',
  'tool-orchestrator/openai': 'openai.js',
  'tool-orchestrator/deepseek': 'deepseek.js',
  'tool-orchestrator/explore': 'explore.js',
  'tool-orchestrator/mcp': 'mcp.js',
  'tool-orchestrator/otel': 'otel.js',
  'tool-orchestrator/trace': 'trace.js',
  'tool-orchestrator/bullmq': 'bullmq.js',
} as const;

/** The error classes an entry of the built package exports. */
async function errorClasses(file: string): Promise<Set<string>> {
  const module = (await import(`${root}dist/${file}`)) as Record<string, unknown>;
  return new Set(
    Object.entries(module)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name),
  );
}

/** The README's Public API row of `subpath`. */
function readmeRow(subpath: string): string {
  const readme = readFileSync(`${root}README.md`, 'utf8');
  const row = readme.split('\n').find((line) => line.startsWith(`| \`${subpath}\` `));
  if (row === undefined) throw new Error(`README has no Public API row for ${subpath}`);
  return row;
}

/** The class names in the first column of the tables under `heading` in docs/errors.md. */
function errorsDocClasses(...headings: string[]): Set<string> {
  const text = readFileSync(`${root}docs/errors.md`, 'utf8');
  const names = new Set<string>();
  for (const heading of headings) {
    const section = text.split(`\n## ${heading}`)[1]?.split('\n## ')[0] ?? '';
    for (const [, name] of section.matchAll(/^\| `(\w+Error)`/gm)) names.add(name!);
  }
  return names;
}

describe("the README's error-class statements are true", () => {
  it('the root exports exactly the core and adapter errors of docs/errors.md', async () => {
    expect(readmeRow('tool-orchestrator')).toContain('every core and adapter error class');
    expect(readmeRow('tool-orchestrator')).not.toMatch(/every error class/);
    const exported = await errorClasses(entries['tool-orchestrator']);
    expect([...exported].sort()).toEqual(
      [...errorsDocClasses('Core', 'Adapters'), 'ToolOrchestratorError'].sort(),
    );
  });

  it('every error class only a subpath exports is named in its README row and in docs/errors.md', async () => {
    const rootErrors = await errorClasses(entries['tool-orchestrator']);
    for (const [subpath, file] of Object.entries(entries)) {
      if (subpath === 'tool-orchestrator') continue;
      for (const name of await errorClasses(file)) {
        if (rootErrors.has(name)) continue;
        expect(readmeRow(subpath), `${name} in the README row of ${subpath}`).toContain(`\`${name}\``);
      }
    }
    const testing = await errorClasses(entries['tool-orchestrator/testing']);
    expect([...testing].sort()).toEqual([...errorsDocClasses('Testing')].sort());
    const explore = await errorClasses(entries['tool-orchestrator/explore']);
    expect([...explore].sort()).toEqual([...errorsDocClasses('Code tools', 'Exploration flows')].sort());
    const mcp = await errorClasses(entries['tool-orchestrator/mcp']);
    expect([...mcp].sort()).toEqual([...errorsDocClasses('MCP')].sort());
    const trace = await errorClasses(entries['tool-orchestrator/trace']);
    expect([...trace].sort()).toEqual([...errorsDocClasses('Trace files')].sort());
    const bullmq = await errorClasses(entries['tool-orchestrator/bullmq']);
    expect([...bullmq].filter((name) => !rootErrors.has(name)).sort()).toEqual(
      [...errorsDocClasses('Scale-out')].sort(),
    );
  });
});
