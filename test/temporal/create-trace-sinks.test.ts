import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../src/index.js';
import { createTraceSinks } from '../../src/temporal.js';
import type { TraceWorkflowInfo } from '../../src/temporal.js';

describe('createTraceSinks', () => {
  it('hands each workflow trace event and its workflow to the emitter, and never on replay', async () => {
    const received: [TraceEvent, TraceWorkflowInfo][] = [];
    const sinks = createTraceSinks((event, workflowInfo) => {
      received.push([event, workflowInfo]);
    });
    const event = {
      type: 'run_start',
      runId: 'run-1',
      turn: 0,
      seq: 0,
      timestamp: 1,
      data: {},
    } as unknown as TraceEvent;
    const workflowInfo = { workflowId: 'agent-1' } as TraceWorkflowInfo;
    await sinks.toolOrchestrator.event.fn(workflowInfo, event);

    expect(received).toEqual([[event, workflowInfo]]);
    expect(sinks.toolOrchestrator.event.callDuringReplay).toBe(false);
  });
});
