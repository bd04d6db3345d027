/** Provider codes of a request longer than the model's window (OpenAI; llama.cpp's server). */
const codes = new Set(['context_length_exceeded', 'exceed_context_size_error']);

/**
 * Messages of the same refusal: OpenAI, DeepSeek and vLLM ("maximum context length is N tokens"),
 * llama.cpp ("exceeds the available context size"), LM Studio and Ollama ("context length",
 * "context window"), TGI ("must have less than N tokens"), Gemini ("The input token count (N)
 * exceeds the maximum number of tokens allowed (M)").
 */
const messages =
  /maximum context length|context[ _-]length[ _-]exceeded|exceeds? (?:the )?(?:available |model'?s? )?context (?:size|length|window)|context window (?:is )?(?:exceeded|too small)|prompt is too long|(?:input|prompt) (?:is )?too (?:long|large) for (?:the )?(?:model'?s? )?context|must have less than \d+ tokens|input token count (?:\(\d+\) )?exceeds the maximum number of tokens allowed/i;

/** True when a 4xx answer says the request does not fit the model's context window. */
export function isContextLengthRefusal(
  status: number,
  providerCode: string | undefined,
  message: string,
): boolean {
  if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) return false;
  return (providerCode !== undefined && codes.has(providerCode)) || messages.test(message);
}

/** The window and the request size, when the message names them ("maximum context length is 65536 tokens. However, you requested 70000 tokens"). */
export function contextLengthFigures(
  message: string,
  body?: Readonly<Record<string, unknown>>,
): { maxContextTokens?: number; requestedTokens?: number } {
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum".
  const anthropic = /(\d[\d,]*) tokens > (\d[\d,]*) maximum/i.exec(message);
  // Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)".
  const gemini = /input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)/i.exec(
    message,
  );
  const maximum =
    (gemini === null ? null : (/allowed \((\d+)\)/.exec(gemini[0]) as RegExpExecArray)) ??
    /maximum context length is (\d[\d,]*)/i.exec(message) ??
    /context (?:size|window) (?:is |of )?\(?(\d[\d,]*)/i.exec(message);
  const requested =
    gemini ??
    anthropic ??
    /(?:requested|resulted in|your messages? (?:resulted in|had)|request has|prompt has|got) (\d[\d,]*) tokens/i.exec(
      message,
    ) ??
    /\((\d[\d,]*) (?:tokens|in the messages)/i.exec(message);
  const number = (match: RegExpExecArray | null): number | undefined => {
    const value = match === null ? Number.NaN : Number(match[1]!.replaceAll(',', ''));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  // llama.cpp's server sends both as fields.
  const field = (name: string): number | undefined => {
    const value = body?.[name];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
  };
  const maxContextTokens =
    field('n_ctx') ?? number(anthropic === null ? maximum : /> (\d[\d,]*) maximum/.exec(anthropic[0]));
  const requestedTokens = field('n_prompt_tokens') ?? number(requested);
  return {
    ...(maxContextTokens === undefined ? {} : { maxContextTokens }),
    ...(requestedTokens === undefined ? {} : { requestedTokens }),
  };
}
