/** What the local server answers on the Gemini API: one thinking turn with a function call, as JSON and as SSE. */

const signature = `CiQB${'x'.repeat(400)}`;
const usageMetadata = {
  promptTokenCount: 100,
  candidatesTokenCount: 30,
  thoughtsTokenCount: 20,
  totalTokenCount: 150,
};
const callPart = {
  functionCall: { name: 'get_weather', args: { city: 'Paris' } },
  thoughtSignature: signature,
};

function chunk(parts: unknown[], finishReason?: string): Record<string, unknown> {
  return {
    candidates: [
      {
        content: { role: 'model', parts },
        index: 0,
        ...(finishReason === undefined ? {} : { finishReason }),
      },
    ],
    usageMetadata,
    modelVersion: 'gemini-2.5-flash',
    responseId: 'resp_1',
  };
}

/** The `generateContent` answer: a thought summary, then the call with its signature. */
export const geminiJson = JSON.stringify(
  chunk([{ text: 'Think. '.repeat(40), thought: true }, callPart], 'STOP'),
);

/** The same answer streamed (`streamGenerateContent?alt=sse`): 40 thought pieces, then the call whole. */
export const geminiSse = [
  ...Array.from({ length: 40 }, () => chunk([{ text: 'Think. ', thought: true }])),
  chunk([callPart], 'STOP'),
]
  .map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`)
  .join('');
