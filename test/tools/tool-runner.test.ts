import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { ToolRunner, defineTool } from '../../src/index.js';
import type { ToolBatchContext, ToolCall, ToolRegistry } from '../../src/index.js';
import { hostileThrownValues, undescribable } from '../support/hostile-values.js';
import { textContent } from '../support/transcript.js';

const call = (name: string, args: string, id = 'c1'): ToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});
const context: ToolBatchContext = { requestId: 'r', runId: 'run', turnIndex: 0 };

const add = defineTool({
  name: 'add',
  description: 'Add',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const ping = defineTool({
  name: 'ping',
  description: 'Ping',
  parameters: z.object({ note: z.string().optional() }),
  execute: () => 'pong',
});
const registry: ToolRegistry = { add, ping };

async function runOne(toolCall: ToolCall, tools: ToolRegistry = registry, runner = new ToolRunner(tools)) {
  const [outcome] = await runner.executeToolCalls(tools, [toolCall], context);
  return outcome!;
}

describe('ToolRunner', () => {
  it('runs a tool and reports its result and duration', async () => {
    const outcome = await runOne(call('add', '{"a":2,"b":3}'));
    expect(outcome).toMatchObject({ toolCallId: 'c1', name: 'add', result: 5, content: '5' });
    expect(outcome.error).toBeUndefined();
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('lists the available tools for an unknown tool name', async () => {
    const outcome = await runOne(call('subtract', '{}'));
    expect(outcome.errorCode).toBe('unknown_tool');
    expect(outcome.error).toBe(
      'Unknown tool "subtract". Available tools: add, ping. Call one of these by its exact name.',
    );
    expect(JSON.parse(textContent(outcome.content))).toEqual({ error: outcome.error });
  });

  it('does not treat Object.prototype names as tools', async () => {
    expect((await runOne(call('constructor', '{}'))).errorCode).toBe('unknown_tool');
  });

  it('quotes the parse error for invalid and truncated JSON', async () => {
    const invalid = await runOne(call('add', '{a: 1, b: 2}'));
    expect(invalid.errorCode).toBe('invalid_json');
    expect(invalid.error).toContain('not valid JSON');
    expect(invalid.error).toContain('"{a: 1, b: 2}"');
    const truncated = await runOne(call('add', '{"a": 1, "b":'));
    expect(truncated.errorCode).toBe('invalid_json');
    expect(truncated.error).toContain('"{\\"a\\": 1, \\"b\\":"');
  });

  it('treats empty arguments as {} only when nothing is required', async () => {
    expect((await runOne(call('ping', ''))).content).toBe('pong');
    expect((await runOne(call('ping', '   '))).content).toBe('pong');
    const empty = await runOne(call('add', ''));
    expect(empty.errorCode).toBe('invalid_json');
    expect(empty.error).toContain('were empty, but it requires "a", "b"');
  });

  it('reports schema issues with their paths', async () => {
    const nested = defineTool({
      name: 'nested',
      description: 'Nested',
      parameters: z.object({ items: z.array(z.object({ name: z.string() })) }),
      execute: () => 'ok',
    });
    const outcome = await runOne(call('nested', '{"items":[{"name":"x"},{"name":5}]}'), { nested });
    expect(outcome.errorCode).toBe('invalid_arguments');
    expect(outcome.error).toMatch(/- items\.1\.name: .*string/);
  });

  it('validates zod 3 schemas and converts them to JSON Schema', async () => {
    const legacy = defineTool({
      name: 'legacy',
      description: 'Zod 3',
      parameters: z3.object({ count: z3.number().int() }),
      execute: ({ count }: { count: number }) => count * 2,
    });
    expect(legacy.inputSchema).toMatchObject({
      type: 'object',
      properties: { count: { type: 'integer' } },
      required: ['count'],
    });
    expect((await runOne(call('legacy', '{"count":4}'), { legacy })).content).toBe('8');
    const bad = await runOne(call('legacy', '{"count":"4"}'), { legacy });
    expect(bad.errorCode).toBe('invalid_arguments');
    expect(bad.error).toMatch(/- count: /);
  });

  it('validates plain JSON Schema tools', async () => {
    const plain = defineTool({
      name: 'plain',
      description: 'Plain',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
        required: ['city'],
        additionalProperties: false,
      },
      execute: (input: { city: string }) => `weather in ${input.city}`,
    });
    expect((await runOne(call('plain', '{"city":"Oslo","days":2}'), { plain })).content).toBe(
      'weather in Oslo',
    );
    const bad = await runOne(call('plain', '{"days":0}'), { plain });
    expect(bad.errorCode).toBe('invalid_arguments');
    expect(bad.error).toMatch(/city/);
    expect(bad.error).toMatch(/- days: /);
  });

  it('reports a throwing or rejecting tool with its message', async () => {
    const thrower = defineTool({
      name: 'thrower',
      description: 'x',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom');
      },
    });
    const rejecter = defineTool({
      name: 'rejecter',
      description: 'x',
      parameters: z.object({}),
      execute: async () => Promise.reject('plain string'),
    });
    const tools = { thrower, rejecter };
    const outcomes = await new ToolRunner(tools).executeToolCalls(
      tools,
      [call('thrower', '{}', 'a'), call('rejecter', '{}', 'b')],
      context,
    );
    expect(outcomes.map((outcome) => outcome.error)).toEqual([
      'Tool "thrower" failed: boom',
      'Tool "rejecter" failed: plain string',
    ]);
  });

  it('describes any thrown value safely, even one that cannot be converted to text', async () => {
    const hostile = hostileThrownValues;
    const tools: ToolRegistry = Object.fromEntries(
      hostile.map(([name, value]) => [
        name,
        defineTool({
          name,
          description: 'Throws something odd',
          parameters: z.object({}),
          execute: () => {
            throw value();
          },
        }),
      ]),
    );
    const outcomes = await new ToolRunner(tools).executeToolCalls(
      tools,
      hostile.map(([name], index) => call(name, '{}', `c${index}`)),
      context,
    );
    expect(outcomes.map((outcome) => [outcome.errorCode, outcome.error])).toEqual(
      hostile.map(([name, , described]) => ['tool_error', `Tool "${name}" failed: ${described}`]),
    );
    // The same values thrown asynchronously, and with a signal (the interruptible path).
    const rejecting = defineTool({
      name: 'rejecting',
      description: 'x',
      parameters: z.object({}),
      execute: () => Promise.reject(Object.create(null)),
    });
    const controller = new AbortController();
    const [rejected] = await new ToolRunner({ rejecting }).executeToolCalls(
      { rejecting },
      [call('rejecting', '{}')],
      { ...context, signal: controller.signal } as ToolBatchContext,
    );
    expect(rejected!.error).toBe(`Tool "rejecting" failed: ${undescribable}`);
  });

  it('reports a result whose toJSON throws an odd value as unserializable', async () => {
    const tools = {
      odd: defineTool({
        name: 'odd',
        description: 'x',
        parameters: z.object({}),
        execute: () => ({
          toJSON() {
            throw Object.create(null);
          },
        }),
      }),
    };
    const [outcome] = await new ToolRunner(tools).executeToolCalls(tools, [call('odd', '{}')], context);
    expect(outcome!.errorCode).toBe('unserializable_result');
    expect(outcome!.error).toMatch(/could not be serialized to JSON \(a value that is not an Error/);
  });

  it('answers calls of the wrong shape with invalid_tool_call instead of throwing', async () => {
    const shapes = [
      { id: 'a', type: 'function', function: { name: 'add', arguments: { a: 1, b: 2 } } },
      { id: 'b', type: 'function', function: { name: 'add', arguments: 12 } },
      { id: 'c', type: 'function' },
      { id: 'd', type: 'function', function: { name: 5, arguments: '{}' } },
      null,
    ] as unknown as ToolCall[];
    const outcomes = await new ToolRunner(registry).executeToolCalls(registry, shapes, context);
    expect(outcomes.map((outcome) => [outcome.toolCallId, outcome.errorCode])).toEqual([
      ['a', 'invalid_tool_call'],
      ['b', 'invalid_tool_call'],
      ['c', 'invalid_tool_call'],
      ['d', 'invalid_tool_call'],
      ['', 'invalid_tool_call'],
    ]);
    expect(outcomes[0]!.error).toMatch(/arrived as an object \(\{"a":1,"b":2\}\), not as a JSON string/);
    expect(outcomes[2]!.error).toMatch(/has no function name/);
  });

  it('times out a tool with its own timeoutMs or the runner default, aborting its signal', async () => {
    let seenAbort = false;
    const hang = defineTool({
      name: 'hang',
      description: 'Never ends',
      parameters: z.object({}),
      timeoutMs: 20,
      execute: (_input, toolContext) =>
        new Promise(() => toolContext.signal.addEventListener('abort', () => (seenAbort = true))),
    });
    const outcome = await runOne(call('hang', '{}'), { hang });
    expect(outcome.errorCode).toBe('timeout');
    expect(outcome.error).toBe(
      'Tool "hang" timed out after 20 ms. Try a smaller request, or a different approach.',
    );
    expect(seenAbort).toBe(true);
    const hangDefault = defineTool({
      name: 'hang',
      description: 'x',
      parameters: z.object({}),
      execute: () => new Promise(() => {}),
    });
    const viaDefault = await runOne(
      call('hang', '{}'),
      { hang: hangDefault },
      new ToolRunner({ hang: hangDefault }, { defaultTimeoutMs: 15 }),
    );
    expect(viaDefault.errorCode).toBe('timeout');
  });

  it('turns unserializable results into errors', async () => {
    const circular: Record<string, unknown> = {};
    circular['self'] = circular;
    const tools = {
      cycle: defineTool({
        name: 'cycle',
        description: 'x',
        parameters: z.object({}),
        execute: () => circular,
      }),
      big: defineTool({
        name: 'big',
        description: 'x',
        parameters: z.object({}),
        execute: () => ({ n: 10n }),
      }),
      fn: defineTool({ name: 'fn', description: 'x', parameters: z.object({}), execute: () => () => 1 }),
    };
    const outcomes = await new ToolRunner(tools).executeToolCalls(
      tools,
      [call('cycle', '{}', 'a'), call('big', '{}', 'b'), call('fn', '{}', 'c')],
      context,
    );
    expect(outcomes.map((outcome) => outcome.errorCode)).toEqual([
      'unserializable_result',
      'unserializable_result',
      'unserializable_result',
    ]);
    expect(outcomes[0]!.error).toMatch(/circular/i);
    expect(outcomes[1]!.error).toMatch(/BigInt/);
  });

  it('passes strings through, stringifies other values and cuts huge results with a marker', async () => {
    const tools = {
      text: defineTool({
        name: 'text',
        description: 'x',
        parameters: z.object({}),
        execute: () => '{"not":"reparsed"}',
      }),
      object: defineTool({
        name: 'object',
        description: 'x',
        parameters: z.object({}),
        execute: () => ({ a: [1, 2] }),
      }),
      huge: defineTool({
        name: 'huge',
        description: 'x',
        parameters: z.object({}),
        execute: () => 'x'.repeat(150),
      }),
    };
    const outcomes = await new ToolRunner(tools, { maxResultChars: 100 }).executeToolCalls(
      tools,
      [call('text', '{}', 'a'), call('object', '{}', 'b'), call('huge', '{}', 'c')],
      context,
    );
    expect(outcomes[0]!.content).toBe('{"not":"reparsed"}');
    expect(outcomes[1]!.content).toBe('{"a":[1,2]}');
    expect(textContent(outcomes[2]!.content).startsWith('x'.repeat(100))).toBe(true);
    expect(outcomes[2]!.content).toContain('[truncated: 50 of 150 characters were cut');
    expect(outcomes[2]!.result).toBe('x'.repeat(150));
  });

  it('answers every call of an already aborted batch with an aborted result', async () => {
    const controller = new AbortController();
    controller.abort();
    const outcomes = await new ToolRunner(registry).executeToolCalls(
      registry,
      [call('add', '{"a":1,"b":2}', 'a'), call('ping', '{}', 'b')],
      { ...context, signal: controller.signal } as ToolBatchContext,
    );
    expect(outcomes.map((outcome) => [outcome.toolCallId, outcome.errorCode])).toEqual([
      ['a', 'aborted'],
      ['b', 'aborted'],
    ]);
  });

  it('rejects bad options with a clear error', () => {
    expect(() => new ToolRunner(registry, { concurrency: 0 })).toThrow(/concurrency \(0\)/);
    expect(() => new ToolRunner(registry, { defaultTimeoutMs: -5 })).toThrow(/defaultTimeoutMs \(-5\)/);
  });
});

describe('defineTool', () => {
  it('rejects unusable definitions with the tool name and the fix', () => {
    expect(() =>
      defineTool({ name: 'bad name', description: 'x', parameters: z.object({}), execute: () => 1 }),
    ).toThrow(/Tool "bad name": the name must be/);
    expect(() =>
      defineTool({ name: 'x', description: 'x', parameters: 'nope' as never, execute: () => 1 }),
    ).toThrow(/parameters must be a zod schema or a JSON Schema object; got string/);
    expect(() =>
      defineTool({ name: 'x', description: 'x', parameters: z.object({}), execute: undefined as never }),
    ).toThrow(/execute must be a function/);
    expect(() =>
      defineTool({ name: 'x', description: 'x', parameters: z.object({}), execute: () => 1, timeoutMs: 0 }),
    ).toThrow(/timeoutMs must be a positive number/);
  });

  it('converts zod 4 optional fields as not required and drops $schema', () => {
    expect(ping.inputSchema).toEqual({
      type: 'object',
      properties: { note: { type: 'string' } },
    });
  });
});
