import type { JsonObject, MessageContent } from '../../model/messages.js';

/**
 * A user message's or a tool result's content as the Responses API takes it: a string as it is;
 * parts as `input_text`, `input_image` (`image_url`, base64 as a `data:` URL) and `input_file`
 * (`file_data` as a `data:` URL, or `file_url`), in a message and in a `function_call_output`
 * alike, where the Responses API takes images and files too.
 */
export function toResponsesContent(content: MessageContent): string | JsonObject[] {
  if (typeof content === 'string') return content;
  return content.map((part): JsonObject => {
    switch (part.type) {
      case 'text':
        return { type: 'input_text', text: part.text };
      case 'image':
        return {
          type: 'input_image',
          detail: 'auto',
          image_url: 'data' in part ? `data:${part.mediaType};base64,${part.data}` : part.url,
        };
      case 'file': {
        const filename = part.filename === undefined ? {} : { filename: part.filename };
        return 'data' in part
          ? {
              type: 'input_file',
              file_data: `data:${part.mediaType};base64,${part.data}`,
              filename: part.filename ?? 'file',
            }
          : { type: 'input_file', file_url: part.url, ...filename };
      }
    }
  });
}
