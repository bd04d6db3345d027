import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';
import { specifiersOf } from '../support/bundle-imports.js';
import { copyPackageWithout } from '../support/package-without.js';
import { runModuleScript } from '../support/run-module-script.js';

const dist = new URL('../../dist/', import.meta.url);

/** Whether either build of `entry` loads `specifier` (the CLI is built as ESM only). */
const loads = (entry: string, specifier: string): boolean =>
  ['js', 'cjs']
    .filter((extension) => existsSync(new URL(`${entry}.${extension}`, dist)))
    .some((extension) => specifiersOf(`${entry}.${extension}`).has(specifier));

describe('optional peer dependencies load only where they are used', () => {
  it('@opentelemetry/api is loaded by tool-orchestrator/otel and by no other entry', () => {
    expect(loads('otel', '@opentelemetry/api')).toBe(true);
    const others = Object.keys(entries).filter(
      (entry) => entry !== 'otel' && loads(entry, '@opentelemetry/api'),
    );
    expect(others).toEqual([]);
    expect(loads('cli', '@opentelemetry/api')).toBe(false);
  });

  it('bullmq and ioredis are loaded by tool-orchestrator/bullmq and by no other entry', () => {
    for (const peer of ['bullmq', 'ioredis']) {
      expect(loads('bullmq', peer), peer).toBe(true);
      const others = Object.keys(entries).filter((entry) => entry !== 'bullmq' && loads(entry, peer));
      expect(others, peer).toEqual([]);
      expect(loads('cli', peer), peer).toBe(false);
    }
  });

  it('@temporalio/* are loaded by the two Temporal entries and by no other; the workflow entry loads no activity code', () => {
    expect(loads('temporal', '@temporalio/activity')).toBe(true);
    expect(loads('temporal', '@temporalio/common')).toBe(true);
    expect(loads('temporal/workflow', '@temporalio/workflow')).toBe(true);
    expect(loads('temporal/workflow', '@temporalio/activity')).toBe(false);
    for (const peer of ['@temporalio/activity', '@temporalio/common', '@temporalio/workflow']) {
      const others = Object.keys(entries).filter(
        (entry) => !entry.startsWith('temporal') && loads(entry, peer),
      );
      expect(others, peer).toEqual([]);
      expect(loads('cli', peer), peer).toBe(false);
    }
  });

  it('@anthropic-ai/sdk is loaded by tool-orchestrator/anthropic and by no other entry', () => {
    expect(loads('anthropic', '@anthropic-ai/sdk')).toBe(true);
    const others = Object.keys(entries).filter(
      (entry) => entry !== 'anthropic' && loads(entry, '@anthropic-ai/sdk'),
    );
    expect(others).toEqual([]);
    expect(loads('anthropic', 'openai')).toBe(false);
  });

  it('@google/genai is loaded by tool-orchestrator/gemini and by no other entry', () => {
    expect(loads('gemini', '@google/genai')).toBe(true);
    const others = Object.keys(entries).filter(
      (entry) => entry !== 'gemini' && loads(entry, '@google/genai'),
    );
    expect(others).toEqual([]);
    expect(loads('gemini', 'openai')).toBe(false);
  });

  it('the trace entry loads no provider SDK and no OpenTelemetry', () => {
    const specifiers = [...specifiersOf('trace.js')];
    expect(
      specifiers.filter((specifier) => specifier.startsWith('@opentelemetry/') || specifier === 'openai'),
    ).toEqual([]);
    // The scan works: the bundle's own Node imports are found.
    expect(specifiers).toEqual(expect.arrayContaining(['fs']));
  });
});

/** The fields of a `MissingDependencyError` a caller reads, as a child script reports them. */
const reportError = `(error) => ({ name: error.name, code: error.code, packageName: error.packageName, installCommand: error.installCommand, message: error.message })`;

describe('an entry whose optional peer is not installed', () => {
  it('tool-orchestrator/openai and /deepseek import without openai; the first request names the package and its install command', async () => {
    const copy = await copyPackageWithout(['openai']);
    try {
      const script = `
        import { createRequire } from 'node:module';
        const report = ${reportError};
        const require = createRequire(import.meta.url);
        const builds = {
          esm: { ...(await import(${JSON.stringify(join(copy.dist, 'openai.js'))})), ...(await import(${JSON.stringify(join(copy.dist, 'deepseek.js'))})), ...(await import(${JSON.stringify(join(copy.dist, 'index.js'))})) },
          cjs: { ...require(${JSON.stringify(join(copy.dist, 'openai.cjs'))}), ...require(${JSON.stringify(join(copy.dist, 'deepseek.cjs'))}), ...require(${JSON.stringify(join(copy.dist, 'index.cjs'))}) },
        };
        const results = {};
        for (const [format, { OpenAIAdapter, OpenAIResponsesAdapter, DeepSeekAdapter, ToolOrchestrator }] of Object.entries(builds)) {
          const messages = [{ role: 'user', content: 'hi' }];
          const openai = new OpenAIAdapter({ model: 'gpt-5-mini', apiKey: 'key', baseURL: 'http://127.0.0.1:9/v1' });
          const deepseek = new DeepSeekAdapter({ model: 'deepseek-v4-flash', apiKey: 'key', baseURL: 'http://127.0.0.1:9' });
          const responses = new OpenAIResponsesAdapter({ model: 'gpt-5-mini', apiKey: 'key', baseURL: 'http://127.0.0.1:9/v1' });
          results[format] = await Promise.all([
            responses.call(messages, []).then(() => 'resolved', report),
            openai.call(messages, []).then(() => 'resolved', report),
            (async () => { for await (const _ of deepseek.stream(messages, [])) {} })().then(() => 'resolved', report),
            new ToolOrchestrator(openai, {}).run(messages).then(() => 'resolved', report),
          ]);
        }
        console.log(JSON.stringify(results));`;
      const expected = {
        name: 'MissingDependencyError',
        code: 'missing_dependency',
        packageName: 'openai',
        installCommand: 'npm install openai',
        message:
          'The OpenAI, OpenAI Responses and DeepSeek adapters (tool-orchestrator/openai, tool-orchestrator/deepseek) need the package "openai" (^5 || ^6), which is not installed. Install it beside tool-orchestrator: npm install openai',
      };
      const results = JSON.parse(await runModuleScript(script)) as Record<string, unknown[]>;
      expect(results).toEqual({
        esm: [expected, expected, expected, expected],
        cjs: [expected, expected, expected, expected],
      });
    } finally {
      await copy.remove();
    }
  });

  it('tool-orchestrator/anthropic imports without @anthropic-ai/sdk; the first request names the package and its install command', async () => {
    const copy = await copyPackageWithout(['@anthropic-ai']);
    try {
      const script = `
        import { createRequire } from 'node:module';
        const report = ${reportError};
        const require = createRequire(import.meta.url);
        const builds = {
          esm: await import(${JSON.stringify(join(copy.dist, 'anthropic.js'))}),
          cjs: require(${JSON.stringify(join(copy.dist, 'anthropic.cjs'))}),
        };
        const results = {};
        for (const [format, { AnthropicAdapter }] of Object.entries(builds)) {
          const messages = [{ role: 'user', content: 'hi' }];
          const adapter = new AnthropicAdapter({ model: 'claude-sonnet-4-6', apiKey: 'key', baseURL: 'http://127.0.0.1:9' });
          results[format] = await Promise.all([
            adapter.call(messages, []).then(() => 'resolved', report),
            (async () => { for await (const _ of adapter.stream(messages, [])) {} })().then(() => 'resolved', report),
          ]);
        }
        console.log(JSON.stringify(results));`;
      const expected = {
        name: 'MissingDependencyError',
        code: 'missing_dependency',
        packageName: '@anthropic-ai/sdk',
        installCommand: 'npm install @anthropic-ai/sdk',
        message: `The Anthropic adapter's requests (tool-orchestrator/anthropic) need the package "@anthropic-ai/sdk" (^1), which is not installed. Install it beside tool-orchestrator: npm install @anthropic-ai/sdk`,
      };
      const results = JSON.parse(await runModuleScript(script)) as Record<string, unknown[]>;
      expect(results).toEqual({ esm: [expected, expected], cjs: [expected, expected] });
    } finally {
      await copy.remove();
    }
  });

  it('tool-orchestrator/gemini imports without @google/genai; the first request names the package and its install command', async () => {
    const copy = await copyPackageWithout(['@google']);
    try {
      const script = `
        import { createRequire } from 'node:module';
        const report = ${reportError};
        const require = createRequire(import.meta.url);
        const builds = {
          esm: await import(${JSON.stringify(join(copy.dist, 'gemini.js'))}),
          cjs: require(${JSON.stringify(join(copy.dist, 'gemini.cjs'))}),
        };
        const results = {};
        for (const [format, { GeminiAdapter }] of Object.entries(builds)) {
          const messages = [{ role: 'user', content: 'hi' }];
          const adapter = new GeminiAdapter({ model: 'gemini-2.5-flash', apiKey: 'key', baseURL: 'http://127.0.0.1:9' });
          results[format] = await Promise.all([
            adapter.call(messages, []).then(() => 'resolved', report),
            (async () => { for await (const _ of adapter.stream(messages, [])) {} })().then(() => 'resolved', report),
          ]);
        }
        console.log(JSON.stringify(results));`;
      const expected = {
        name: 'MissingDependencyError',
        code: 'missing_dependency',
        packageName: '@google/genai',
        installCommand: 'npm install @google/genai@2',
        message: `The Gemini adapter's requests (tool-orchestrator/gemini) need the package "@google/genai" (^2), which is not installed. Install it beside tool-orchestrator: npm install @google/genai@2`,
      };
      const results = JSON.parse(await runModuleScript(script)) as Record<string, unknown[]>;
      expect(results).toEqual({ esm: [expected, expected], cjs: [expected, expected] });
    } finally {
      await copy.remove();
    }
  });

  it('tool-orchestrator/bullmq imports without bullmq and ioredis; the first use names the package and its install command', async () => {
    const copy = await copyPackageWithout(['bullmq', 'ioredis']);
    try {
      const script = `
        const report = ${reportError};
        const { createRunQueue, createRunWorker, RedisCheckpointStore } = await import(${JSON.stringify(join(copy.dist, 'bullmq.js'))});
        // Nothing listens there: no connection is attempted without the packages.
        const connection = { host: '127.0.0.1', port: 9 };
        const queue = createRunQueue({ connection });
        const worker = createRunWorker({ connection, orchestrator: () => { throw new Error('no run expected'); } });
        const store = new RedisCheckpointStore({ connection });
        const results = await Promise.all([
          queue.enqueue({ messages: [{ role: 'user', content: 'hi' }] }).then(() => 'resolved', report),
          worker.waitUntilReady().then(() => 'resolved', report),
          store.load('r1').then(() => 'resolved', report),
        ]);
        await Promise.all([queue.close(), worker.close(), store.close()]);
        console.log(JSON.stringify(results));`;
      const missing = (packageName: string, neededFor: string) => ({
        name: 'MissingDependencyError',
        code: 'missing_dependency',
        packageName,
        installCommand: 'npm install bullmq ioredis',
        message: `${neededFor} need the package "${packageName}" (^${packageName === 'bullmq' ? 6 : 5}), which is not installed. Install it beside tool-orchestrator: npm install bullmq ioredis`,
      });
      const queueAndWorker = 'The BullMQ scale-out (createRunQueue, createRunWorker)';
      expect(JSON.parse(await runModuleScript(script))).toEqual([
        missing('bullmq', queueAndWorker),
        missing('bullmq', queueAndWorker),
        missing('ioredis', 'The BullMQ scale-out (createRunQueue, createRunWorker, RedisCheckpointStore)'),
      ]);
    } finally {
      await copy.remove();
    }
  });
});
