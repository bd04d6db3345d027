import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolDefinitionError, defineTool } from '../../src/index.js';
import type { ToolAnnotations } from '../../src/index.js';

const define = (annotations: unknown) =>
  defineTool({
    name: 'remove',
    description: 'Removes a thing.',
    parameters: z.object({}),
    annotations: annotations as ToolAnnotations,
    execute: () => 'removed',
  });

function definitionError(annotations: unknown): ToolDefinitionError {
  try {
    define(annotations);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error(`defineTool accepted annotations ${JSON.stringify(annotations)}`);
}

describe('defineTool annotations', () => {
  it('keeps a frozen copy of the annotations on the tool', () => {
    const given = { title: 'Remove', readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    const tool = define(given);
    expect(tool.annotations).toEqual(given);
    expect(tool.annotations).not.toBe(given);
    expect(Object.isFrozen(tool.annotations)).toBe(true);
    expect('annotations' in define(undefined)).toBe(false);
  });

  it('refuses annotations that are not an object, naming what was given', () => {
    expect(definitionError('read-only').message).toBe(
      'Tool "remove": annotations must be an object such as { readOnlyHint: true }; got a string.',
    );
    expect(definitionError(null).message).toContain('got null');
    expect(definitionError([true]).message).toContain('got an array');
  });

  it('refuses a hint that is not a boolean and a title that is not a string', () => {
    const error = definitionError({ readOnlyHint: 'true' });
    expect(error.message).toBe('Tool "remove": annotations.readOnlyHint must be true or false; got "true".');
    expect(error.toolName).toBe('remove');
    expect(definitionError({ openWorldHint: 0 }).message).toContain(
      'annotations.openWorldHint must be true or false; got 0',
    );
    expect(definitionError({ title: 42 }).message).toContain('annotations.title must be a string; got 42');
  });

  it('refuses a key MCP does not define, so a misspelt hint is not silently dropped', () => {
    expect(definitionError({ readonlyHint: true }).message).toBe(
      'Tool "remove": annotations.readonlyHint is not a tool annotation; use title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint (MCP\'s ToolAnnotations).',
    );
  });
});
