import { z } from 'zod';
import { defineTool } from '../../tools/define-tool.js';
import { readOnlyCodeToolAnnotations } from './read-only-annotations.js';
import type { CodeIntelligenceToolOptions } from '../index/code-intelligence-tool-options.js';
import { maxOutputCharsOf } from '../index/code-intelligence-tool-options.js';
import type { FileStructure, OutlineMember } from '../index/structure.js';
import { parserLabel } from './parser-label.js';
import { truncateOutput } from './truncate-output.js';

const parameters = z.object({
  path: z.string().describe('Source file, relative to the repository root, e.g. "src/server.ts".'),
});

function formatStructure(structure: FileStructure): string {
  const lines = [
    `${structure.path}: ${structure.lineCount} lines (${structure.language}, ${parserLabel(structure.engine)})`,
  ];
  if (structure.notice !== undefined) lines.push(`Note: ${structure.notice}`);
  if (structure.imports.length > 0) {
    lines.push(`Imports (${structure.imports.length}):`);
    for (const record of structure.imports) {
      const target = record.resolved === undefined ? '' : ` -> ${record.resolved}`;
      const names = record.names.length === 0 ? '' : ` {${record.names.join(', ')}}`;
      lines.push(`  L${record.line} ${record.specifier}${target}${names}`);
    }
  }
  if (structure.exports.length > 0) {
    const names = structure.exports.map((record) => {
      const local = record.local === undefined ? '' : ` (${record.local})`;
      return `${record.name}${local}${record.from === undefined ? '' : ` from ${record.from}`}`;
    });
    lines.push(`Exports: ${names.join(', ')}`);
  }
  lines.push('Outline:');
  if (structure.outline.length === 0) lines.push('  (no declarations)');
  for (const entry of structure.outline) {
    const flag = entry.isDefault ? ' [exported default]' : entry.exported ? ' [exported]' : '';
    lines.push(
      `  L${entry.startLine}-${entry.endLine} ${entry.kind} ${entry.name}${flag}: ${entry.signature}`,
    );
    pushMembers(lines, entry.members ?? [], '    ');
  }
  return lines.join('\n');
}

function pushMembers(lines: string[], members: readonly OutlineMember[], indent: string): void {
  for (const member of members) {
    lines.push(
      `${indent}L${member.startLine}-${member.endLine} ${member.kind} ${member.name}: ${member.signature}`,
    );
    pushMembers(lines, member.members ?? [], `${indent}  `);
  }
}

/**
 * Creates the `get_structure` tool: a file's outline (classes with their members, functions,
 * types) with signatures and line ranges, plus what it imports and exports.
 */
export function createGetStructureTool(options: CodeIntelligenceToolOptions) {
  const maxOutputChars = maxOutputCharsOf(options);
  return defineTool({
    name: 'get_structure',
    description:
      'Outline a source file without reading it whole: its classes with their methods, functions, types and variables, ' +
      'each with signature and line range, plus an imports/exports summary. Then read_file the line range you need.',
    parameters,
    annotations: readOnlyCodeToolAnnotations,
    execute: async ({ path }, context) => {
      const structure = await options.index.structure(path, { signal: context?.signal });
      return truncateOutput(
        formatStructure(structure),
        maxOutputChars,
        'Use get_symbols for a shorter list, or read_file with a line range.',
      );
    },
  });
}
