import { readdirSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';

// Each entry of the built package (run `npx tsup` after changing src/), pinned name by name: the
// runtime names its JavaScript exports and the type-only names its declarations add. A name that
// appears or disappears here is a change to the public API; the CHANGELOG must say so.
const root = new URL('../../', import.meta.url);

const pinned: Record<keyof typeof entries, { readonly values: string[]; readonly types: string[] }> = {
  index: {
    values: [
      'AbortedError',
      'AuthenticationError',
      'BudgetExceededError',
      'ConnectionError',
      'ContextLengthError',
      'EmptyResponseError',
      'FileCheckpointStore',
      'GuardrailTrippedError',
      'InsufficientBalanceError',
      'InsufficientSystemResourceError',
      'InvalidArgumentError',
      'InvalidRequestError',
      'InvalidRunStateError',
      'LoopDetectedError',
      'MaxTurnsExceededError',
      'MemoryCheckpointStore',
      'MissingApiKeyError',
      'MissingDependencyError',
      'ModelProviderError',
      'RateLimitError',
      'ResumeMismatchError',
      'ServerError',
      'StreamError',
      'StructuredOutputError',
      'ToolDefinitionError',
      'ToolOrchestrator',
      'ToolOrchestratorError',
      'ToolRunner',
      'UnexpectedResponseError',
      'UnsupportedRuntimeError',
      'addUsage',
      'defineTool',
      'emptyUsage',
      'estimateTokens',
      'handoff',
      'toolCalled',
      'toolContent',
      'turnCountIs',
      'validateRunState',
    ],
    types: [
      'AgentPathStep',
      'AgentToolOptions',
      'ApprovalDecision',
      'AssistantMessage',
      'BudgetExceededErrorOptions',
      'BudgetLimit',
      'CallingRun',
      'ChatMessage',
      'ChatRole',
      'CheckpointStore',
      'ConnectionErrorOptions',
      'ContentPart',
      'ContextLengthErrorOptions',
      'ContextStrategy',
      'ContextStrategyInfo',
      'ContextStrategyOption',
      'ContextWindowOptions',
      'CurrentTurnState',
      'ExecuteToolCallsOptions',
      'FileCheckpointStoreOptions',
      'FilePart',
      'FingerprintChange',
      'FinishReason',
      'GuardrailKind',
      'GuardrailOptions',
      'GuardrailRunInfo',
      'GuardrailTrippedErrorOptions',
      'GuardrailVerdict',
      'Handoff',
      'HandoffAgent',
      'HandoffEntry',
      'HandoffInputFilter',
      'HandoffOptions',
      'HandoffsOption',
      'ImagePart',
      'InferSchema',
      'InputGuardrail',
      'InputGuardrailInfo',
      'InvalidArgumentErrorOptions',
      'InvalidRunStateErrorOptions',
      'JsonObject',
      'JsonSchema',
      'JsonValue',
      'LoopDetectedErrorOptions',
      'LoopGuardAction',
      'LoopGuardOptions',
      'MaxTurnsExceededErrorOptions',
      'MessageContent',
      'MissingApiKeyErrorOptions',
      'MissingDependencyErrorOptions',
      'ModelAdapter',
      'ModelCallOptions',
      'ModelPricing',
      'ModelProviderErrorCode',
      'ModelProviderErrorOptions',
      'ModelResponse',
      'ModelStreamEvent',
      'ModelToolDefinition',
      'ModelWarning',
      'NeedsApproval',
      'OnCutShort',
      'OutputGuardrail',
      'OutputGuardrailInfo',
      'OutputOf',
      'OutputOption',
      'OutputOptions',
      'PausedRun',
      'PausedRunResume',
      'PendingApproval',
      'PrepareTurn',
      'PrepareTurnHook',
      'PrepareTurnInfo',
      'ProviderData',
      'ReasoningPart',
      'RecordedToolOutcome',
      'RepairToolCall',
      'RepairToolCallInfo',
      'ResponseFormat',
      'ResumeMismatchErrorOptions',
      'ResumeOptions',
      'RunBudget',
      'RunFingerprint',
      'RunOptions',
      'RunResult',
      'RunState',
      'RunStateResult',
      'RunStateStopReason',
      'RunStream',
      'SchemaIssue',
      'StopCondition',
      'StopConditionState',
      'StopReason',
      'StructuredOutputErrorOptions',
      'SystemMessage',
      'TextPart',
      'Tool',
      'ToolAnnotations',
      'ToolBatchContext',
      'ToolCall',
      'ToolCallOutcome',
      'ToolCallProblem',
      'ToolCallRecord',
      'ToolCallReference',
      'ToolCallRefusal',
      'ToolChoice',
      'ToolConfig',
      'ToolContent',
      'ToolDefinitionErrorOptions',
      'ToolErrorCode',
      'ToolExecutionContext',
      'ToolGuardrailVerdict',
      'ToolInputGuardrail',
      'ToolInputGuardrailInfo',
      'ToolMessage',
      'ToolOrchestratorErrorCode',
      'ToolOrchestratorErrorOptions',
      'ToolOrchestratorOptions',
      'ToolOutputGuardrail',
      'ToolOutputGuardrailInfo',
      'ToolRegistry',
      'ToolRunnerOptions',
      'TraceContent',
      'TraceContentPart',
      'TraceEmitter',
      'TraceEvent',
      'TraceEventData',
      'TraceEventOf',
      'TraceEventType',
      'TraceSink',
      'UnsupportedRuntimeErrorOptions',
      'Usage',
      'UserMessage',
    ],
  },
  testing: {
    values: ['ScriptExhaustedError', 'ScriptedAdapter'],
    types: ['RecordedCall', 'ScriptExhaustedErrorOptions', 'ScriptedAdapterOptions', 'ScriptedResponse'],
  },
  openai: {
    values: ['ChatCompletionsAdapter', 'OpenAIAdapter', 'OpenAIResponsesAdapter', 'toStrictSchema'],
    types: [
      'ChatCompletionsAdapterOptions',
      'OpenAIAdapterOptions',
      'OpenAIClient',
      'OpenAIRequestOptions',
      'OpenAIResponsesAdapterOptions',
      'OpenAIResponsesClient',
      'ProviderDefaults',
      'ResponseFormat',
    ],
  },
  deepseek: {
    values: ['DeepSeekAdapter'],
    types: [
      'ChatCompletionsAdapterOptions',
      'DeepSeekAdapterOptions',
      'OpenAIClient',
      'OpenAIRequestOptions',
      'ReasoningReplay',
      'ResponseFormat',
    ],
  },
  anthropic: {
    values: ['AnthropicAdapter'],
    types: [
      'AnthropicAdapterOptions',
      'AnthropicCacheOptions',
      'AnthropicClient',
      'AnthropicRequestOptions',
      'AnthropicThinking',
    ],
  },
  gemini: {
    values: ['GeminiAdapter'],
    types: ['GeminiAdapterOptions', 'GeminiClient', 'GeminiRequest', 'GeminiThinkingConfig'],
  },
  explore: {
    values: [
      'CodeIndex',
      'CodeIndexError',
      'ContextProviderSpec',
      'ContextRequest',
      'ContextResult',
      'ExplorationInput',
      'ExplorationOrchestrator',
      'ExplorationResponse',
      'ExplorerReportSchema',
      'ExplorerTimeoutError',
      'FileReadError',
      'FulfillContextInput',
      'JsonLinesRunStore',
      'Sandbox',
      'SandboxError',
      'StructuredOutputError',
      'callExplorationLlm',
      'contextRequestKey',
      'createCodeTools',
      'createContextProviders',
      'createExploreCodebaseTool',
      'defaultDenyPatterns',
      'defineContextProvider',
      'explorationSystemPromptTemplate',
      'exploreContext',
      'explorerDepthTurns',
      'fulfillContextRequests',
      'generateWithContext',
      'maxSandboxPathLength',
      'recommendedNextStep',
      'resolveCodeToolLimits',
      'runExplorer',
    ],
    types: [
      'CallExplorationLlmDependencies',
      'CodeIndexErrorOptions',
      'CodeIndexOptions',
      'CodeIndexSandbox',
      'CodeSymbol',
      'CodeToolFactoryOptions',
      'CodeToolLimits',
      'CommandSpec',
      'ContextProvider',
      'ContextProviderContext',
      'ContextProviderRegistry',
      'CreateCodeToolsOptions',
      'CreateContextProvidersOptions',
      'DefinitionLocation',
      'ExplorationLogger',
      'ExplorationOrchestratorOptions',
      'ExplorationOutput',
      'ExploreCodebaseToolOptions',
      'ExploreContextOptions',
      'ExploreContextResult',
      'ExplorerDepth',
      'ExplorerEvidence',
      'ExplorerFinding',
      'ExplorerNextStep',
      'ExplorerReport',
      'ExplorerTimeoutErrorOptions',
      'ExportRecord',
      'FileImportGraph',
      'FileListing',
      'FileReadErrorCode',
      'FileReadErrorOptions',
      'FileReferences',
      'FileStats',
      'FileStructure',
      'FileSymbols',
      'FindReferencesOptions',
      'FulfillContextDependencies',
      'FulfillContextOutput',
      'GenerateWithContextOptions',
      'GitRepository',
      'ImportGraphSummary',
      'ImportRecord',
      'LineWindow',
      'ListFilesOptions',
      'OutlineEntry',
      'OutlineMember',
      'ParsedFile',
      'Playbook',
      'QueryOptions',
      'RecommendedNextStepOptions',
      'ReferenceLocation',
      'ReferencesResult',
      'RepoMap',
      'RepoMapOptions',
      'RunExplorerOptions',
      'RunHistoryStore',
      'RunRecord',
      'SandboxErrorOptions',
      'SandboxLimits',
      'SandboxOptions',
      'StructuredOutputErrorOptions',
      'StructuredOutputMode',
      'SymbolKind',
      'TextFile',
      'WindowLine',
    ],
  },
  mcp: {
    values: ['McpConnectionError', 'connectMcpServer', 'createMcpServer', 'mcpResultText', 'serveMcp'],
    types: [
      'ConnectMcpServerOptions',
      'McpCallResult',
      'McpConnection',
      'McpConnectionErrorOptions',
      'McpHttpServerSpec',
      'McpSdkServer',
      'McpServeOptions',
      'McpServedCall',
      'McpServerSpec',
      'McpStdioServer',
      'McpStdioServerSpec',
      'McpToolAnnotations',
      'McpToolListing',
      'McpTransport',
      'McpTransportServerSpec',
      'McpWarning',
      'McpWarningCode',
      'ServeMcpOptions',
    ],
  },
  otel: {
    values: ['createOtelSink'],
    types: ['OtelSinkOptions', 'OtelTraceSink', 'OtelTracer'],
  },
  trace: {
    values: ['TraceFileError', 'createJsonlSink', 'readJsonl', 'renderTraceHtml'],
    types: [
      'JsonlSinkOptions',
      'JsonlTraceSink',
      'ModelPrices',
      'RenderTraceHtmlOptions',
      'TraceFileErrorCode',
      'TraceFileErrorOptions',
    ],
  },
  replay: {
    values: ['ReplayAdapter', 'ReplayMismatchError', 'cassetteVersion', 'parseCassette', 'recordModel'],
    types: [
      'Cassette',
      'CassetteCall',
      'CassetteHeader',
      'CassetteRequest',
      'RecordModelOptions',
      'RecordedError',
      'RecordedStreamEvent',
      'RedactionRules',
      'ReplayAdapterOptions',
      'ReplayMatch',
      'ReplayMatchContext',
      'ReplayMismatchErrorOptions',
    ],
  },
  evals: {
    values: [
      'EvalReportError',
      'answerEquals',
      'answerMatches',
      'compareReports',
      'evalReportVersion',
      'evaluate',
      'llmJudge',
      'maxCost',
      'maxLatency',
      'maxTokens',
      'outputSatisfies',
      'parseReport',
      'readReport',
      'renderEvalHtml',
      'toolWasCalled',
      'toolWasNotCalled',
      'trajectory',
      'writeEvalHtml',
      'writeReport',
    ],
    types: [
      'AnswerEqualsOptions',
      'CaseComparison',
      'CompareReportsOptions',
      'EvalCase',
      'EvalCaseResult',
      'EvalCaseStatus',
      'EvalChange',
      'EvalProgress',
      'EvalReport',
      'EvalReportErrorOptions',
      'EvalScore',
      'EvalScorerSummary',
      'EvalSummary',
      'EvalToolCall',
      'EvaluateOptions',
      'LlmJudgeOptions',
      'RenderEvalHtmlOptions',
      'ReportComparison',
      'Score',
      'ScoredCase',
      'Scorer',
      'ScorerComparison',
      'ScorerContext',
      'TaskContext',
      'TaskResult',
      'ToolWasCalledOptions',
      'TrajectoryOptions',
      'WriteEvalHtmlOptions',
      'WrittenEvalHtml',
    ],
  },
  postgres: {
    values: ['PostgresCheckpointStore', 'checkpointTablesSql', 'migrate'],
    types: [
      'CheckpointTablesOptions',
      'PostgresCheckpointStoreCommonOptions',
      'PostgresCheckpointStoreOptions',
      'PostgresPool',
      'PostgresPoolClient',
      'PostgresQueryConfig',
      'PostgresQueryResult',
      'PostgresQueryable',
    ],
  },
  bullmq: {
    values: [
      'RedisCheckpointStore',
      'RunJobFailedError',
      'createRunQueue',
      'createRunWorker',
      'executeRunJob',
    ],
    types: [
      'CancelOutcome',
      'EnqueueRunInput',
      'ExecuteRunJobOptions',
      'OrchestratorFactory',
      'QueuedRunResult',
      'RedisCheckpointStoreOptions',
      'RedisClient',
      'RedisConnection',
      'RedisConnectionOptions',
      'RunJob',
      'RunJobData',
      'RunJobFailedErrorOptions',
      'RunQueue',
      'RunQueueOptions',
      'RunResultOptions',
      'RunWorker',
      'RunWorkerOptions',
    ],
  },
};

/**
 * Types a public declaration uses that no entry exports, each with why users need not name it.
 * Any other such type is a gap: a user could receive it but not write it down.
 */
const unexportedTypes: Record<string, string> = {
  CompiledSchema: 'Tool#schema, the compiled validator, marked @internal',
  ValidationOutcome: 'what CompiledSchema#validate returns',
  InferInput: "defineTool's inference of a schema's type; users write z.infer",
  ContextResultBase: 'the fields shared by the ContextResult union; users name ContextResult',
  ParsedFulfillContextInput: 'the parsed FulfillContextInput; z.output<typeof FulfillContextInput> names it',
  ParsedExplorationInput: 'the parsed ExplorationInput; z.output<typeof ExplorationInput> names it',
};

/**
 * Every declaration file of the build, read with the TypeScript checker; not the neutral root's, whose
 * types are `index.d.ts`.
 */
function readDeclarations(): { program: ts.Program; checker: ts.TypeChecker; files: string[] } {
  const files = readdirSync(new URL('dist/', root))
    .filter((file) => file.endsWith('.d.ts') && file !== 'neutral.d.ts')
    .map((file) => new URL(`dist/${file}`, root).pathname);
  const program = ts.createProgram(files, {
    noEmit: true,
    skipLibCheck: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    types: [],
  });
  return { program, checker: program.getTypeChecker(), files };
}

/** The symbols `dist/<entry>.d.ts` exports. */
function entryExports(declarations: ReturnType<typeof readDeclarations>, entry: string): ts.Symbol[] {
  const file = declarations.program.getSourceFile(new URL(`dist/${entry}.d.ts`, root).pathname);
  const module = file === undefined ? undefined : declarations.checker.getSymbolAtLocation(file);
  if (module === undefined) throw new Error(`dist/${entry}.d.ts is missing or not a module; run npx tsup`);
  return declarations.checker.getExportsOfModule(module);
}

describe('the export list of every entry', () => {
  const declarations = readDeclarations();

  it('pins every entry', () => {
    expect(Object.keys(pinned).sort()).toEqual(Object.keys(entries).sort());
  });

  for (const entry of Object.keys(entries) as (keyof typeof entries)[]) {
    it(`${entry}: exports exactly the pinned runtime names`, async () => {
      const module = (await import(new URL(`dist/${entry}.js`, root).href)) as object;
      expect(Object.keys(module).sort()).toEqual(pinned[entry].values);
    });
  }

  it('declares exactly the pinned names, types included', () => {
    for (const entry of Object.keys(entries) as (keyof typeof entries)[]) {
      const names = entryExports(declarations, entry).map((symbol) => symbol.name);
      expect(names.filter((name) => !pinned[entry].values.includes(name)).sort(), entry).toEqual(
        pinned[entry].types,
      );
      expect(names, entry).toEqual(expect.arrayContaining(pinned[entry].values));
    }
  });

  it('exports every type a public declaration uses, but the listed ones', () => {
    const { checker } = declarations;
    const exported = new Set(
      Object.keys(entries)
        .flatMap((entry) => entryExports(declarations, entry))
        .map((symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol)),
    );
    // The bundled declarations hold only what the entries reach, so a type declared there and
    // exported by no entry is one a public signature uses.
    const unexported = declarations.files.flatMap((file) =>
      declarations.program
        .getSourceFile(file)!
        .statements.filter(
          (statement) =>
            ts.isInterfaceDeclaration(statement) ||
            ts.isTypeAliasDeclaration(statement) ||
            ts.isClassDeclaration(statement),
        )
        .map((statement) => statement.name!)
        .filter((name) => !exported.has(checker.getSymbolAtLocation(name)!))
        .map((name) => name.text),
    );
    expect([...new Set(unexported)].sort()).toEqual(Object.keys(unexportedTypes).sort());
  });
});
