/**
 * Gemini's documented rules for structured output, as the fake Gemini API enforces them:
 * `responseJsonSchema` (JSON Schema) or `responseSchema` (OpenAPI subset), never both, each only
 * with `responseMimeType: 'application/json'`; a mime type Gemini knows; and, on a model named
 * `gemini-1*` or `gemini-2*`, no `application/json` answer in a request that declares functions
 * (Gemini documents structured output together with function calling for Gemini 3 models only).
 * A model name without a version (the conformance suite's) is taken as Gemini 3. Returns the 400 message, or
 * `undefined` when Gemini takes the request.
 */

const mimeTypes = new Set(['text/plain', 'application/json', 'text/x.enum']);

/** The major version in a model name such as `gemini-2.5-flash`, or `undefined`. */
function majorVersion(model: string): number | undefined {
  const match = /^gemini-(\d+)/.exec(model);
  return match === null ? undefined : Number(match[1]);
}

/** The 400 message for the request's structured-output settings, or `undefined`. */
export function checkResponseSchema(body: Record<string, unknown>, model: string): string | undefined {
  const config = body['generationConfig'];
  if (typeof config !== 'object' || config === null) return undefined;
  const generation = config as Record<string, unknown>;
  const mimeType = generation['responseMimeType'];
  const jsonSchema = generation['responseJsonSchema'];
  const schema = generation['responseSchema'];
  if (mimeType !== undefined && (typeof mimeType !== 'string' || !mimeTypes.has(mimeType)))
    return `* GenerateContentRequest.generation_config.response_mime_type: allowed mimetypes are \`text/plain\`, \`application/json\`, \`text/x.enum\`. ${JSON.stringify(mimeType)} is not supported.`;
  if (jsonSchema !== undefined && schema !== undefined)
    return '* GenerateContentRequest.generation_config: response_schema and response_json_schema cannot both be set.';
  if ((jsonSchema !== undefined || schema !== undefined) && mimeType !== 'application/json')
    return '* GenerateContentRequest.generation_config.response_mime_type: a response schema needs response_mime_type application/json.';
  if (
    jsonSchema !== undefined &&
    (typeof jsonSchema !== 'object' || jsonSchema === null || Array.isArray(jsonSchema))
  )
    return '* GenerateContentRequest.generation_config.response_json_schema: must be a JSON Schema object.';
  const declaresFunctions =
    Array.isArray(body['tools']) &&
    (body['tools'] as Record<string, unknown>[]).some((tool) => tool['functionDeclarations'] !== undefined);
  const major = majorVersion(model);
  if (declaresFunctions && mimeType === 'application/json' && major !== undefined && major < 3)
    return "Tool use with a response mime type: 'application/json' is unsupported";
  return undefined;
}
