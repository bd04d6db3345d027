/**
 * The MCP SDK client module that tool-orchestrator itself loads. The bench links the library to
 * the repository, so `@modelcontextprotocol/client` has two copies of the same version here: the
 * bench's and the repository's. An application has one. Calling the SDK directly through the
 * bench's copy would compare two separately compiled copies of the same code (they differ by up to
 * a quarter from process to process on this machine) rather than our layer.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as ClientModule from '@modelcontextprotocol/client';
import type * as StdioModule from '@modelcontextprotocol/client/stdio';

const sdkName = '@modelcontextprotocol/client';

interface ExportsOf {
  readonly exports: Record<string, { readonly import: { readonly default: string } }>;
}

/** The folder of the SDK package that `tool-orchestrator/mcp` resolves. */
function sdkFolder(): string {
  const library = fileURLToPath(import.meta.resolve('tool-orchestrator/mcp'));
  let folder = dirname(createRequire(library).resolve(sdkName));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { name?: string };
      if (manifest.name === sdkName) return folder;
    } catch {
      // No package.json here: go up.
    }
    const parent = dirname(folder);
    if (parent === folder) throw new Error(`cannot find the ${sdkName} that tool-orchestrator loads`);
    folder = parent;
  }
}

const folder = sdkFolder();
const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as ExportsOf;
const entry = (subpath: string): string =>
  pathToFileURL(join(folder, manifest.exports[subpath]!.import.default)).href;

export const { Client, InMemoryTransport } = (await import(entry('.'))) as typeof ClientModule;
export const { StdioClientTransport } = (await import(entry('./stdio'))) as typeof StdioModule;
/** The client class's type, as the SDK declares it. */
export type Client = ClientModule.Client;
