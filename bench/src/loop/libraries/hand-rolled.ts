import { pageText } from '../scenarios.js';
import type { LoopLibrary, Script } from '../scenarios.js';
import { addParameters, pageParameters } from '../tool-schemas.js';

interface Message {
  role: string;
  content: string | null;
  tool_call_id?: string;
  tool_calls?: readonly { id: string; name: string; arguments: string }[];
}

/** The floor: the least a loop can do (parse, validate with the same zod schema, execute, append). */
export const handRolled: LoopLibrary = {
  name: 'hand-rolled',
  async prepare(script: Script) {
    const execute = (name: string, raw: string): string => {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return '{"error":"invalid JSON"}';
      }
      if (name === 'add') {
        const parsed = addParameters.safeParse(value);
        if (!parsed.success) return JSON.stringify({ error: parsed.error.message });
        script.executions++;
        return String(parsed.data.a + parsed.data.b);
      }
      const parsed = pageParameters.safeParse(value);
      if (!parsed.success) return JSON.stringify({ error: parsed.error.message });
      script.executions++;
      return pageText;
    };
    const model = async (_messages: readonly Message[]) => script.next();
    return async () => {
      const messages: Message[] = [{ role: 'user', content: 'Run the benchmark script.' }];
      for (;;) {
        const turn = await model(messages);
        if (turn.calls.length === 0) {
          messages.push({ role: 'assistant', content: turn.text });
          return turn.text;
        }
        messages.push({ role: 'assistant', content: null, tool_calls: turn.calls });
        const results = await Promise.all(turn.calls.map(async (call) => execute(call.name, call.arguments)));
        for (let index = 0; index < results.length; index++) {
          messages.push({ role: 'tool', tool_call_id: turn.calls[index]!.id, content: results[index]! });
        }
      }
    };
  },
};
