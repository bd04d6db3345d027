import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolOrchestratorError } from '../../src/index.js';
import * as mcp from '../../src/mcp.js';
import { runModuleScript } from '../support/run-module-script.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dist = join(root, 'dist');
const importPattern =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Module specifiers loaded by `file` and its local chunks, split into static and dynamic imports. */
async function specifiersOf(file: string): Promise<{ static: Set<string>; dynamic: Set<string> }> {
  const found = { static: new Set<string>(), dynamic: new Set<string>() };
  const visited = new Set<string>();
  const visit = async (name: string): Promise<void> => {
    if (visited.has(name)) return;
    visited.add(name);
    const code = await readFile(join(dist, name), 'utf8');
    for (const match of code.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? match[3]!;
      if (specifier.startsWith('./')) await visit(specifier.slice(2));
      else (match[1] === undefined ? found.dynamic : found.static).add(specifier);
    }
  };
  await visit(file);
  return found;
}

describe('tool-orchestrator/mcp', () => {
  it('exports only branded errors', () => {
    const errors = Object.entries(mcp).filter(
      ([, value]) =>
        typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Error,
    );
    expect(errors.map(([name]) => name).sort()).toEqual(['McpConnectionError']);
    for (const [, ErrorClass] of errors) {
      expect((ErrorClass as { prototype: unknown }).prototype).toBeInstanceOf(ToolOrchestratorError);
    }
  });

  it('loads the MCP SDK only there, and only on demand', async () => {
    for (const entry of ['index.js', 'testing.js', 'openai.js', 'deepseek.js', 'explore.js']) {
      const { static: statics, dynamic } = await specifiersOf(entry);
      const sdk = [...statics, ...dynamic].filter((specifier) =>
        specifier.startsWith('@modelcontextprotocol/'),
      );
      expect(sdk, entry).toEqual([]);
    }
    const { static: statics, dynamic } = await specifiersOf('mcp.js');
    expect([...statics].filter((specifier) => specifier.startsWith('@modelcontextprotocol/'))).toEqual([]);
    expect([...dynamic].sort()).toEqual(
      expect.arrayContaining([
        '@modelcontextprotocol/client',
        '@modelcontextprotocol/client/stdio',
        '@modelcontextprotocol/server',
        '@modelcontextprotocol/server/stdio',
      ]),
    );
  });

  it('imports without the SDK installed, and says which package to install when a function needs it', async () => {
    // A copy of the package whose node_modules has everything but @modelcontextprotocol/*.
    const copy = await mkdtemp(join(tmpdir(), 'mcp-no-sdk-'));
    try {
      await cp(dist, join(copy, 'dist'), { recursive: true });
      await writeFile(join(copy, 'package.json'), JSON.stringify({ name: 'copy', type: 'module' }));
      await mkdir(join(copy, 'node_modules'));
      for (const name of await readdir(join(root, 'node_modules'))) {
        if (name === '@modelcontextprotocol' || name === '.bin') continue;
        await symlink(join(root, 'node_modules', name), join(copy, 'node_modules', name));
      }
      const script = `
        const mcp = await import(${JSON.stringify(join(copy, 'dist', 'mcp.js'))});
        const results = [];
        for (const call of [
          () => mcp.connectMcpServer({ command: 'anything' }),
          () => mcp.createMcpServer({}, { name: 'n', version: '1' }),
        ]) {
          try { await call(); results.push('resolved'); }
          catch (error) { results.push({ name: error.name, code: error.code, packageName: error.packageName, message: error.message }); }
        }
        console.log(JSON.stringify(results));`;
      const output = await runModuleScript(script);
      expect(JSON.parse(output)).toEqual([
        {
          name: 'MissingDependencyError',
          code: 'missing_dependency',
          packageName: '@modelcontextprotocol/client',
          message:
            'The MCP client functions (connectMcpServer) need the package "@modelcontextprotocol/client" (^2.4.0), which is not installed. Install it beside tool-orchestrator: npm install @modelcontextprotocol/client',
        },
        {
          name: 'MissingDependencyError',
          code: 'missing_dependency',
          packageName: '@modelcontextprotocol/server',
          message:
            'The MCP server functions (createMcpServer, serveMcp, tool-orchestrator mcp serve) need the package "@modelcontextprotocol/server" (^2.4.0), which is not installed. Install it beside tool-orchestrator: npm install @modelcontextprotocol/server',
        },
      ]);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
