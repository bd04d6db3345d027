type Item = Record<string, unknown>;

/**
 * The documented events of a streamed response: `response.created`, then for each output item
 * `response.output_item.added` (a reasoning item without its encrypted content, as OpenAI sends
 * it), its deltas, `response.output_item.done` with the whole item, then `response.completed`.
 */
export function streamEvents(response: Item): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const inProgress = { ...response, status: 'in_progress', output: [], usage: null };
  events.push(
    { type: 'response.created', response: inProgress },
    { type: 'response.in_progress', response: inProgress },
  );
  const output = response['output'] as Item[];
  output.forEach((item, outputIndex) => {
    const itemId = item['id'];
    if (item['type'] === 'reasoning') {
      events.push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { id: itemId, type: 'reasoning', summary: [] },
      });
      (item['summary'] as Item[]).forEach((part, summaryIndex) => {
        const text = String(part['text']);
        events.push({
          type: 'response.reasoning_summary_part.added',
          item_id: itemId,
          output_index: outputIndex,
          summary_index: summaryIndex,
          part: { type: 'summary_text', text: '' },
        });
        for (const delta of pieces(text))
          events.push({
            type: 'response.reasoning_summary_text.delta',
            item_id: itemId,
            output_index: outputIndex,
            summary_index: summaryIndex,
            delta,
          });
        events.push({
          type: 'response.reasoning_summary_text.done',
          item_id: itemId,
          output_index: outputIndex,
          summary_index: summaryIndex,
          text,
        });
        events.push({
          type: 'response.reasoning_summary_part.done',
          item_id: itemId,
          output_index: outputIndex,
          summary_index: summaryIndex,
          part,
        });
      });
    } else if (item['type'] === 'message') {
      events.push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', content: [] },
      });
      const part = (item['content'] as Item[])[0]!;
      const text = String(part['text']);
      events.push({
        type: 'response.content_part.added',
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      });
      for (const delta of pieces(text))
        events.push({
          type: 'response.output_text.delta',
          item_id: itemId,
          output_index: outputIndex,
          content_index: 0,
          delta,
          logprobs: [],
        });
      events.push({
        type: 'response.output_text.done',
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        text,
        logprobs: [],
      });
      events.push({
        type: 'response.content_part.done',
        item_id: itemId,
        output_index: outputIndex,
        content_index: 0,
        part,
      });
    } else {
      events.push({
        type: 'response.output_item.added',
        output_index: outputIndex,
        item: { ...item, status: 'in_progress', arguments: '' },
      });
      const text = String(item['arguments']);
      for (const delta of pieces(text))
        events.push({
          type: 'response.function_call_arguments.delta',
          item_id: itemId,
          output_index: outputIndex,
          delta,
        });
      events.push({
        type: 'response.function_call_arguments.done',
        item_id: itemId,
        output_index: outputIndex,
        arguments: text,
      });
    }
    events.push({ type: 'response.output_item.done', output_index: outputIndex, item });
  });
  events.push({
    type: response['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed',
    response,
  });
  return events;
}

/** Text cut into pieces of up to 8 characters, as deltas arrive. */
function pieces(text: string): string[] {
  const result: string[] = [];
  for (let start = 0; start < text.length; start += 8) result.push(text.slice(start, start + 8));
  return result;
}
