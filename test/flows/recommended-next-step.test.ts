import { describe, expect, it } from 'vitest';
import { recommendedNextStep } from '../../src/flows/explorer/recommended-next-step.js';
import type { ExplorerReport } from '../../src/flows/explorer/explorer-report-schema.js';

const base: ExplorerReport = {
  question: 'q',
  inferredUserGoal: 'add retries',
  confidence: 0.9,
  repoMap: { entrypoints: [], keyDirs: [], configs: [], commands: [] },
  findings: [],
  missingInfoQuestions: [],
  recommendedNextAction: 'ready_to_plan',
};

describe('recommendedNextStep', () => {
  it('plans when the explorer is ready and confident', () => {
    expect(recommendedNextStep(base)).toEqual({ type: 'plan', report: base });
  });

  it('asks for confirmation when ready_to_plan comes with low confidence', () => {
    expect(recommendedNextStep({ ...base, confidence: 0.3 })).toMatchObject({
      type: 'confirm',
      goal: 'add retries',
    });
    expect(recommendedNextStep({ ...base, confidence: 0.3 }, { minConfidenceToPlan: 0.2 }).type).toBe('plan');
  });

  it('asks the open questions, and confirms when there are none', () => {
    const asking = { ...base, recommendedNextAction: 'ask_clarifying_questions' as const };
    expect(recommendedNextStep({ ...asking, missingInfoQuestions: ['Which client?'] })).toEqual({
      type: 'ask',
      questions: ['Which client?'],
    });
    expect(recommendedNextStep(asking).type).toBe('confirm');
  });

  it('confirms, with a question when no goal was inferred', () => {
    const step = recommendedNextStep({
      ...base,
      recommendedNextAction: 'ask_confirmation',
      inferredUserGoal: null,
    });
    expect(step).toEqual({
      type: 'confirm',
      goal: null,
      message: 'I looked into "q". Can you say what you want to achieve?',
    });
  });
});
