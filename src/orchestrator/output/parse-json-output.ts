/** How strictly {@link parseJsonOutput} reads model output. */
export interface ParseJsonOutputOptions {
  /**
   * Accept one Markdown code fence wrapping the whole output (```` ```json ... ``` ````) by
   * stripping it. The content is unambiguous, and models add fences even when told not to.
   * @default true
   */
  readonly allowFence?: boolean;
  /** Also accept prose around the JSON by taking the outermost `{...}`. @default false */
  readonly allowProse?: boolean;
}

/** The outcome of reading JSON from model output. */
export type ParsedJsonOutput =
  | { readonly ok: true; readonly value: unknown; readonly fenced: boolean }
  | { readonly ok: false; readonly error: string };

const wholeFence = /^```[a-zA-Z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/**
 * Reads one JSON value from a model's text output. A fence around the whole output is
 * stripped when allowed; prose around the JSON is refused unless `allowProse` is set.
 */
export function parseJsonOutput(
  text: string | null | undefined,
  options: ParseJsonOutputOptions = {},
): ParsedJsonOutput {
  let body = (text ?? '').trim();
  if (body === '') return { ok: false, error: 'the output is empty; answer with one JSON object' };
  let fenced = false;
  const fence = wholeFence.exec(body);
  if (fence !== null) {
    if (options.allowFence === false) {
      return {
        ok: false,
        error: 'the output is wrapped in a Markdown code fence; answer with the bare JSON object',
      };
    }
    body = (fence[1] ?? '').trim();
    fenced = true;
  }
  if (options.allowProse === true && !body.startsWith('{')) {
    const start = body.indexOf('{');
    const end = body.lastIndexOf('}');
    if (start !== -1 && end > start) body = body.slice(start, end + 1);
  }
  try {
    return { ok: true, value: JSON.parse(body), fenced };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const hint = body.startsWith('{') ? '' : ' (it must start with "{": no prose before or after the JSON)';
    return { ok: false, error: `the output is not valid JSON${hint}: ${reason}` };
  }
}
