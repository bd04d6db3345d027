import { describe, expect, it } from 'vitest';
// The public entry, tool-orchestrator/explore, which re-exports the flows barrel.
import * as flows from '../../src/explore/index.js';
import { ToolOrchestratorError } from '../../src/errors/tool-orchestrator-error.js';

describe('flows public API', () => {
  it('exports the three flows, the design-named schemas and the helpers', () => {
    for (const name of [
      'ExplorationOrchestrator',
      'exploreContext',
      'callExplorationLlm',
      'fulfillContextRequests',
      'generateWithContext',
      'createContextProviders',
      'createExploreCodebaseTool',
      'runExplorer',
      'recommendedNextStep',
      'JsonLinesRunStore',
    ] as const) {
      expect(typeof flows[name], name).toBe('function');
    }
    for (const schema of [
      flows.ContextProviderSpec,
      flows.ContextRequest,
      flows.ExplorationResponse,
      flows.ContextResult,
      flows.FulfillContextInput,
      flows.ExplorationInput,
      flows.ExplorerReportSchema,
    ]) {
      expect(typeof schema.safeParse).toBe('function');
    }
  });

  it('brands its errors with a string code', () => {
    const structured = new flows.StructuredOutputError({
      schemaName: 'X',
      rawOutput: 'raw',
      issues: [{ path: ['a'], message: 'bad' }],
      attempts: 2,
    });
    const timeout = new flows.ExplorerTimeoutError({ timeoutMs: 5, question: 'q' });
    expect(ToolOrchestratorError.isInstance(structured) && structured.code).toBe('structured_output_invalid');
    expect(ToolOrchestratorError.isInstance(timeout) && timeout.code).toBe('explorer_timeout');
    expect(structured.name).toBe('StructuredOutputError');
    expect(structured.message).toContain('"raw"');
    expect(timeout.message).toContain('Raise timeout_ms');
  });
});
