/**
 * How an adapter was set up for structured output, as the flows' `structuredOutput` option said.
 *
 * @deprecated Ignored: the explorer's report and the context loop's `ExplorationResponse` are the
 * runs' typed `output` (docs/agents.md), sent as the provider's native structured output when the
 * adapter has it (`supportsResponseFormat`), else as a final-answer tool. Leave the option out.
 */
export type StructuredOutputMode = 'json_schema' | 'json_object' | 'none';
