import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ResumeMismatchError, ToolOrchestratorError, defineTool } from '../../src/index.js';
import type { ModelToolDefinition } from '../../src/index.js';
import { compareFingerprints, fingerprintRun } from '../../src/durable/run-fingerprint.js';

const read = defineTool({
  name: 'read',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: () => 'x',
});
const write = defineTool({
  name: 'write',
  description: 'Write a file',
  parameters: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } } },
  execute: () => 'ok',
});

describe('fingerprintRun', () => {
  it('maps each tool name to a hash of its schema, and keeps the model', () => {
    const fingerprint = fingerprintRun({ tools: { read, write }, model: 'gpt-4o' });
    expect(Object.keys(fingerprint.tools)).toEqual(['read', 'write']);
    expect(fingerprint.tools['read']).toMatch(/^[0-9a-f]{16}$/);
    expect(fingerprint.tools['read']).not.toBe(fingerprint.tools['write']);
    expect(fingerprint.model).toBe('gpt-4o');
    expect(fingerprintRun({ tools: {} })).toEqual({ tools: {} });
    expect(JSON.parse(JSON.stringify(fingerprint))).toEqual(fingerprint);
  });

  it('gives a registry and the model tool definitions of the same tools the same fingerprint', () => {
    const definitions: ModelToolDefinition[] = [write, read].map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    expect(fingerprintRun({ tools: definitions })).toEqual(fingerprintRun({ tools: { read, write } }));
  });

  it('ignores key order and descriptions, and notices any change of the schema itself', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } };
    const reordered = { properties: { b: { type: 'number' }, a: { type: 'string' } }, type: 'object' };
    const tool = (parameters: object, description = 'd') =>
      defineTool({ name: 't', description, parameters, execute: () => 1 });
    const base = fingerprintRun({ tools: { t: tool(schema) } });
    expect(fingerprintRun({ tools: { t: tool(reordered, 'reworded') } })).toEqual(base);
    const widened = { ...schema, required: ['a'] };
    expect(fingerprintRun({ tools: { t: tool(widened) } })).not.toEqual(base);
  });
});

describe('compareFingerprints and ResumeMismatchError', () => {
  it('finds no change between equal fingerprints', () => {
    expect(
      compareFingerprints(fingerprintRun({ tools: { read } }), fingerprintRun({ tools: { read } })),
    ).toEqual([]);
  });

  it('names tools added, removed, with another schema, and a changed model', () => {
    const other = defineTool({
      ...read,
      parameters: z.object({ path: z.string(), lines: z.number() }),
      execute: () => 'y',
    });
    const saved = fingerprintRun({ tools: { read, write }, model: 'gpt-4o' });
    const current = fingerprintRun({
      tools: { read: other, search: defineTool({ ...read, name: 'search' }) },
      model: 'gpt-4.1',
    });
    const changes = compareFingerprints(saved, current);
    expect(changes).toEqual([
      { type: 'tool_schema_changed', toolName: 'read' },
      { type: 'tool_removed', toolName: 'write' },
      { type: 'tool_added', toolName: 'search' },
      { type: 'model_changed', savedModel: 'gpt-4o', currentModel: 'gpt-4.1' },
    ]);
    const error = new ResumeMismatchError({ runId: 'run-7', changes });
    expect(error).toBeInstanceOf(ToolOrchestratorError);
    expect(ToolOrchestratorError.isInstance(error)).toBe(true);
    expect(error.name).toBe('ResumeMismatchError');
    expect(error.code).toBe('resume_mismatch');
    expect(error.runId).toBe('run-7');
    expect(error.changes).toBe(changes);
    expect(error.message).toBe(
      'Cannot resume run "run-7": since it was saved, the schema of tool "read" changed; tool "write" was removed; ' +
        'tool "search" was added; the model changed from "gpt-4o" to "gpt-4.1". ' +
        'Resume it with the tools and model it was saved with, or pass { force: true } to resume it anyway.',
    );
  });

  it('counts a model known on one side only as a change', () => {
    expect(
      compareFingerprints(fingerprintRun({ tools: {}, model: 'm' }), fingerprintRun({ tools: {} })),
    ).toEqual([{ type: 'model_changed', savedModel: 'm', currentModel: undefined }]);
    expect(
      new ResumeMismatchError({
        runId: 'r',
        changes: [{ type: 'model_changed', savedModel: undefined, currentModel: 'm' }],
      }).message,
    ).toContain('the model changed from none named to "m"');
  });
});
