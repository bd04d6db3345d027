// The part of `@google/genai` the Gemini adapter uses at run time, in one module that
// `gemini-connect.ts` imports on first use: `@google/genai` is an optional peer dependency.
export { GoogleGenAI } from '@google/genai';
