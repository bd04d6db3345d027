import { ZodFirstPartyTypeKind as zodTypeKinds } from 'zod/v3';
import { describe, expect, it } from 'vitest';
import { ZodFirstPartyTypeKind } from '../../src/tools/zod-first-party-type-kind.js';

describe('ZodFirstPartyTypeKind', () => {
  it("is zod 3's table of type names, name for name", () => {
    expect(ZodFirstPartyTypeKind).toEqual({ ...zodTypeKinds });
  });
});
