import { describe, expect, it } from 'vitest';
import { inputMessagesJson } from '../../src/otel/gen-ai-messages.js';

describe('inputMessagesJson with content parts', () => {
  it('writes texts as text parts, an image at a URL as a uri part, and base64 data as its placeholder', () => {
    const json = inputMessagesJson([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these.' },
          { type: 'image', url: 'https://example.com/a.png', mediaType: 'image/png' },
          { type: 'image', data: 'Qk'.repeat(2048), mediaType: 'image/png' },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'done' }] },
    ]);
    expect(JSON.parse(json)).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', content: 'Compare these.' },
          { type: 'uri', modality: 'image', mime_type: 'image/png', uri: 'https://example.com/a.png' },
          { type: 'text', content: '[image: image/png, 3 KB]' },
        ],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool_call_response', id: 'call_1', response: [{ type: 'text', content: 'done' }] }],
      },
    ]);
    expect(json).not.toContain('QkQk');
  });
});
