// The parts of the `openai` package the adapters use at run time, in one module that
// `create-client.ts` imports on first use: `openai` is an optional peer dependency.
export { OpenAI } from 'openai';
export { _iterSSEMessages as decodeServerSentEvents } from 'openai/streaming';
