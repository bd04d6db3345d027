// The parts of `@anthropic-ai/sdk` the Anthropic adapter uses at run time, in one module that
// `anthropic-connect.ts` imports on first use: `@anthropic-ai/sdk` is an optional peer dependency.
export { Anthropic } from '@anthropic-ai/sdk';
export { _iterSSEMessages as decodeServerSentEvents } from '@anthropic-ai/sdk/core/streaming';
export { jsonSchemaOutputFormat } from '@anthropic-ai/sdk/helpers/json-schema';
