import { z as z3 } from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Root from '../../src/index.js';
import { createBundleProject } from '../support/bundle-app.js';
import type { BundleProject } from '../support/bundle-app.js';

// Reads dist/: run `npm run build` after changing src/.
const dist = new URL('../../dist/', import.meta.url);
let project: BundleProject;

beforeAll(async () => {
  project = await createBundleProject();
});
afterAll(async () => {
  await project.remove();
});

const zod4App = `
import { z } from 'zod';
import { ToolOrchestrator, defineTool } from 'tool-orchestrator';
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
console.log(ToolOrchestrator, add.inputSchema);
`;

describe('zod in a bundle of the root entry', () => {
  it("a zod 4 app's browser bundle carries no zod 3", async () => {
    const { errors, inputs } = await project.bundle(zod4App, 'browser');
    expect(errors).toEqual([]);
    // The scan sees zod's files: zod 4's are there.
    expect(inputs.some((input) => input.includes('node_modules/zod/v4/'))).toBe(true);
    expect(inputs.filter((input) => input.includes('node_modules/zod/v3/'))).toEqual([]);
  });

  it('converts zod 3 schemas in the build exactly as zod-to-json-schema does with zod 3 itself', async () => {
    const { defineTool } = (await import(new URL('index.js', dist).href)) as typeof Root;
    enum Color {
      Red = 'red',
      Green = 'green',
    }
    const schema = z3.object({
      text: z3
        .string()
        .min(1)
        .max(40)
        .regex(/^[a-z]+$/),
      email: z3.string().email().optional(),
      count: z3.number().int().positive(),
      big: z3.bigint(),
      flag: z3.boolean().default(false),
      when: z3.date(),
      nothing: z3.null(),
      anything: z3.any(),
      unknown: z3.unknown(),
      list: z3.array(z3.string()).min(1),
      pair: z3.tuple([z3.string(), z3.number()]),
      map: z3.record(z3.string(), z3.number()),
      entries: z3.map(z3.string(), z3.number()),
      unique: z3.set(z3.string()),
      kind: z3.literal('fixed'),
      choice: z3.enum(['a', 'b']),
      color: z3.nativeEnum(Color),
      either: z3.union([z3.string(), z3.number()]),
      shape: z3.discriminatedUnion('type', [
        z3.object({ type: z3.literal('circle'), radius: z3.number() }),
        z3.object({ type: z3.literal('square'), side: z3.number() }),
      ]),
      both: z3.intersection(z3.object({ a: z3.string() }), z3.object({ b: z3.number() })),
      nullable: z3.string().nullable(),
      refined: z3.string().refine((value) => value.length > 2),
      caught: z3.number().catch(0),
      branded: z3.string().brand<'Id'>(),
      piped: z3.string().pipe(z3.string().min(2)),
      frozen: z3.array(z3.number()).readonly(),
      later: z3.lazy(() => z3.string()),
      never: z3.never().optional(),
    });
    const tool = defineTool({ name: 'zod3', description: 'zod 3', parameters: schema, execute: () => 1 });
    const { $schema: _ignored, ...expected } = zodToJsonSchema(schema, {
      $refStrategy: 'none',
      target: 'jsonSchema7',
    }) as Record<string, unknown>;
    expect(tool.inputSchema).toEqual(expected);
    // The schema is converted, not passed through empty.
    expect(Object.keys(tool.inputSchema['properties'] as object)).toHaveLength(28);
  });
});
