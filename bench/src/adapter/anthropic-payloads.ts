/** What the local server answers on the Messages API: one thinking turn with a tool call, as JSON and as SSE. */

const thinking = 'Think. '.repeat(40);
const signature = `Eq${'x'.repeat(400)}`;
const usage = {
  input_tokens: 100,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  output_tokens: 50,
};
const message = {
  id: 'msg_1',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4-6',
  content: [
    { type: 'thinking', thinking, signature },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage,
};

/** The Messages API's answer. */
export const anthropicJson = JSON.stringify(message);

/** The same answer streamed, as Anthropic documents the events: 40 thinking deltas, the input in two pieces. */
export const anthropicSse = [
  {
    type: 'message_start',
    message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 1 } },
  },
  { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
  ...Array.from({ length: 40 }, () => ({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'thinking_delta', thinking: 'Think. ' },
  })),
  { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } },
  { type: 'content_block_stop', index: 0 },
  {
    type: 'content_block_start',
    index: 1,
    content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
  },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"city":' } },
  { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '"Paris"}' } },
  { type: 'content_block_stop', index: 1 },
  {
    type: 'message_delta',
    delta: { stop_reason: 'tool_use', stop_sequence: null },
    usage: { output_tokens: 50 },
  },
  { type: 'message_stop' },
]
  .map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
  .join('');
