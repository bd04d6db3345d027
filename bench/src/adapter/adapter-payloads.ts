/** What the local server answers: one reasoning turn with a tool call, as JSON and as SSE, for each API. */

const reasoningText = 'Think. '.repeat(40);
const usage = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 50,
  output_tokens_details: { reasoning_tokens: 20 },
  total_tokens: 150,
};
const responsesOutput = [
  {
    id: 'rs_1',
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: reasoningText }],
    encrypted_content: `gAAAAB${'x'.repeat(2000)}`,
  },
  {
    id: 'fc_1',
    type: 'function_call',
    status: 'completed',
    arguments: '{"city":"Paris"}',
    call_id: 'call_1',
    name: 'get_weather',
  },
];
const responsesBody = {
  id: 'resp_1',
  object: 'response',
  status: 'completed',
  error: null,
  incomplete_details: null,
  model: 'gpt-5-mini',
  output: responsesOutput,
  usage,
};

/** The Responses API's answer. */
export const responsesJson = JSON.stringify(responsesBody);

/** The same answer streamed, as OpenAI documents the events. */
export const responsesSse = [
  { type: 'response.created', response: { ...responsesBody, status: 'in_progress', output: [] } },
  {
    type: 'response.output_item.added',
    output_index: 0,
    item: { id: 'rs_1', type: 'reasoning', summary: [] },
  },
  ...Array.from({ length: 40 }, () => ({
    type: 'response.reasoning_summary_text.delta',
    item_id: 'rs_1',
    output_index: 0,
    summary_index: 0,
    delta: 'Think. ',
  })),
  { type: 'response.output_item.done', output_index: 0, item: responsesOutput[0] },
  { type: 'response.output_item.added', output_index: 1, item: { ...responsesOutput[1], arguments: '' } },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '{"city":' },
  { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 1, delta: '"Paris"}' },
  { type: 'response.output_item.done', output_index: 1, item: responsesOutput[1] },
  { type: 'response.completed', response: responsesBody },
]
  .map(
    (event, index) =>
      `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`,
  )
  .join('');

const toolCall = {
  id: 'call_1',
  type: 'function',
  function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
};
const chatUsage = { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 };

/** The Chat Completions API's answer. */
export const chatJson = JSON.stringify({
  id: 'c',
  object: 'chat.completion',
  created: 1,
  model: 'gpt-5-mini',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: null, tool_calls: [toolCall] },
      finish_reason: 'tool_calls',
    },
  ],
  usage: chatUsage,
});

const chunk = (delta: unknown, finish: string | null = null, extra: object = {}): string =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'gpt-5-mini', choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;

/** The same answer streamed: 40 content pieces, then the call in three fragments. */
export const chatSse = [
  chunk({ role: 'assistant', content: null }),
  ...Array.from({ length: 40 }, () => chunk({ content: 'Think. ' })),
  chunk({
    tool_calls: [
      { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
    ],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
  chunk({}, 'tool_calls', { usage: chatUsage }),
  'data: [DONE]\n\n',
].join('');
