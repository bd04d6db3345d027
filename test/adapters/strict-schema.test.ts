import { describe, expect, it } from 'vitest';
import { toStrictSchema } from '../../src/adapters/shared/strict-schema.js';
import { ToolDefinitionError } from '../../src/errors/tool-definition-error.js';

describe('toStrictSchema', () => {
  it('makes nested objects, arrays, $defs and unions strict without changing the input', () => {
    const input = {
      type: 'object',
      properties: {
        tags: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string' }, weight: { type: 'number' } },
            required: ['name'],
          },
        },
        mode: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
        already: { type: ['string', 'null'] },
        ref: { $ref: '#/$defs/point' },
        loose: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
      },
      required: ['tags'],
      $defs: { point: { type: 'object', properties: { x: { type: 'number' } } } },
    };
    const before = structuredClone(input);
    expect(toStrictSchema('t', input)).toMatchInlineSnapshot(`
      {
        "$defs": {
          "point": {
            "additionalProperties": false,
            "properties": {
              "x": {
                "type": [
                  "number",
                  "null",
                ],
              },
            },
            "required": [
              "x",
            ],
            "type": "object",
          },
        },
        "additionalProperties": false,
        "properties": {
          "already": {
            "type": [
              "string",
              "null",
            ],
          },
          "loose": {
            "additionalProperties": false,
            "properties": {
              "a": {
                "type": [
                  "string",
                  "null",
                ],
              },
            },
            "required": [
              "a",
            ],
            "type": [
              "object",
              "null",
            ],
          },
          "mode": {
            "anyOf": [
              {
                "type": "string",
              },
              {
                "type": "integer",
              },
              {
                "type": "null",
              },
            ],
          },
          "ref": {
            "anyOf": [
              {
                "$ref": "#/$defs/point",
              },
              {
                "type": "null",
              },
            ],
          },
          "tags": {
            "items": {
              "additionalProperties": false,
              "properties": {
                "name": {
                  "type": "string",
                },
                "weight": {
                  "type": [
                    "number",
                    "null",
                  ],
                },
              },
              "required": [
                "name",
                "weight",
              ],
              "type": "object",
            },
            "type": "array",
          },
        },
        "required": [
          "tags",
          "mode",
          "already",
          "ref",
          "loose",
        ],
        "type": "object",
      }
    `);
    expect(input).toEqual(before);
  });

  it.each([
    [{ type: 'array', items: { type: 'string' } }, 'at "/", the root has type "array"'],
    [
      { type: 'object', properties: { meta: { type: 'object', additionalProperties: { type: 'string' } } } },
      'at "/properties/meta", it is a free-form map',
    ],
    [
      { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'number' } },
      '`additionalProperties` gives a schema',
    ],
    [
      { type: 'object', properties: { a: { type: 'string', not: { const: 'x' } } } },
      'at "/properties/a", `not` is not supported',
    ],
    [
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      '`patternProperties` is not supported',
    ],
  ])('refuses %j with a message naming the path and the fix', (schema, expected) => {
    expect(() => toStrictSchema('lookup', schema)).toThrow(ToolDefinitionError);
    expect(() => toStrictSchema('lookup', schema)).toThrow(expected);
    expect(() => toStrictSchema('lookup', schema)).toThrow(
      /^Tool "lookup": .*set strict: false on this tool\.$/,
    );
  });
});
