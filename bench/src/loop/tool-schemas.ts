import { z } from 'zod';

/** The `add` tool's parameters: the same zod schema for every library. */
export const addParameters = z.object({ a: z.number(), b: z.number() });

/** The `page` tool's parameters (S3). */
export const pageParameters = z.object({ page: z.number() });

export const addDescription = 'Add two numbers.';
export const pageDescription = 'Return one 2 KB page of text.';
