/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (development status, read in
 * open-telemetry/semantic-conventions-genai, docs/gen-ai). Written out here because the packaged
 * constants are deprecated and move between releases.
 */
export const genAi = {
  operationName: 'gen_ai.operation.name',
  providerName: 'gen_ai.provider.name',
  conversationId: 'gen_ai.conversation.id',
  agentName: 'gen_ai.agent.name',
  requestModel: 'gen_ai.request.model',
  requestStream: 'gen_ai.request.stream',
  responseModel: 'gen_ai.response.model',
  responseFinishReasons: 'gen_ai.response.finish_reasons',
  usageInputTokens: 'gen_ai.usage.input_tokens',
  usageOutputTokens: 'gen_ai.usage.output_tokens',
  usageReasoningOutputTokens: 'gen_ai.usage.reasoning.output_tokens',
  usageCacheReadInputTokens: 'gen_ai.usage.cache_read.input_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  toolType: 'gen_ai.tool.type',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  inputMessages: 'gen_ai.input.messages',
  outputMessages: 'gen_ai.output.messages',
  errorType: 'error.type',
} as const;

/** Our own attributes, for what the conventions have no name for. */
export const toolOrchestrator = {
  parentRunId: 'tool_orchestrator.parent_run_id',
  parentToolCallId: 'tool_orchestrator.parent_tool_call_id',
  requestId: 'tool_orchestrator.request_id',
  maxTurns: 'tool_orchestrator.max_turns',
  turn: 'tool_orchestrator.turn',
  turns: 'tool_orchestrator.turns',
  stopReason: 'tool_orchestrator.stop_reason',
  finalAnswer: 'tool_orchestrator.final_answer',
  providerRequestId: 'tool_orchestrator.provider_request_id',
  toolErrorCode: 'tool_orchestrator.tool.error_code',
} as const;

/** `gen_ai.operation.name` values we emit. */
export const genAiOperation = {
  invokeAgent: 'invoke_agent',
  chat: 'chat',
  executeTool: 'execute_tool',
} as const;
