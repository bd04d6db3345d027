import { readFile, readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { completion } from '../adapters/fake-openai-server.js';
import { runBuiltCli } from '../support/built-cli.js';
import { explorerReport, useExploreFixture } from '../support/explore-fixture.js';

const root = new URL('../../', import.meta.url);
const context = useExploreFixture('cli-env-');
const report = explorerReport;

/** Runs `explore --json` answering with a valid report; returns the exit code and the one request's model and key. */
async function explore(args: readonly string[], env: Record<string, string>) {
  context.server.enqueue({ type: 'json', body: completion({ content: JSON.stringify(report) }) });
  const result = await runBuiltCli(['explore', 'What is a?', '--repo', context.repo, '--json', ...args], {
    env,
  });
  const request = context.server.requests.at(-1);
  return {
    ...result,
    model: (request?.body as { model?: string } | undefined)?.model,
    authorization: request?.headers.authorization,
  };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe('one rule for model settings: flag, TOOL_ORCHESTRATOR_*, provider variable, default (issue 17 item 8)', () => {
  it('OPENAI_BASE_URL and OPENAI_MODEL, with no key, reach a local server', async () => {
    const result = await explore([], { OPENAI_BASE_URL: context.server.baseURL, OPENAI_MODEL: 'env-model' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(report);
    expect(result.model).toBe('env-model');
  });

  it('a flag beats TOOL_ORCHESTRATOR_*, which beats OPENAI_*', async () => {
    const dead = `http://127.0.0.1:${await closedPort()}/v1`;
    const flag = await explore(['--model', 'flag-model'], {
      TOOL_ORCHESTRATOR_BASE_URL: context.server.baseURL,
      OPENAI_BASE_URL: dead,
      TOOL_ORCHESTRATOR_MODEL: 'tool-model',
      OPENAI_MODEL: 'openai-model',
    });
    expect(flag.code, flag.stdout).toBe(0);
    expect(flag.model).toBe('flag-model');
    const variable = await explore([], {
      TOOL_ORCHESTRATOR_BASE_URL: context.server.baseURL,
      OPENAI_BASE_URL: dead,
      TOOL_ORCHESTRATOR_MODEL: 'tool-model',
      OPENAI_MODEL: 'openai-model',
    });
    expect(variable.code, variable.stdout).toBe(0);
    expect(variable.model).toBe('tool-model');
    const url = await explore(['--base-url', context.server.baseURL, '--model', 'm'], {
      TOOL_ORCHESTRATOR_BASE_URL: dead,
    });
    expect(url.code, url.stdout).toBe(0);
  });

  it('DEEPSEEK_API_KEY picks deepseek, with DEEPSEEK_BASE_URL and its default model, and sends the key', async () => {
    const result = await explore([], {
      DEEPSEEK_API_KEY: 'sk-deep',
      DEEPSEEK_BASE_URL: context.server.baseURL,
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.model).toBe('deepseek-v4-flash');
    expect(result.authorization).toBe('Bearer sk-deep');
  });

  it('TOOL_ORCHESTRATOR_API_KEY and TOOL_ORCHESTRATOR_PROVIDER', async () => {
    const result = await explore([], {
      TOOL_ORCHESTRATOR_PROVIDER: 'openai',
      TOOL_ORCHESTRATOR_API_KEY: 'sk-tool',
      OPENAI_API_KEY: 'sk-openai',
      OPENAI_BASE_URL: context.server.baseURL,
      OPENAI_MODEL: 'm',
      DEEPSEEK_API_KEY: 'sk-deep',
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.authorization).toBe('Bearer sk-tool');
    expect(result.model).toBe('m');
  });

  it('the openai provider without a model exits 2 naming the flag and the variables', async () => {
    const result = await runBuiltCli(['explore', 'What is a?', '--repo', context.repo], {
      env: { OPENAI_BASE_URL: context.server.baseURL },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--model is required with the openai provider');
    expect(result.stderr).toContain('TOOL_ORCHESTRATOR_MODEL or OPENAI_MODEL');
    expect(context.server.requests).toHaveLength(0);
  });

  it('docs/cli.md has one table with every variable, and the examples read only variables from it', async () => {
    const cli = await readFile(new URL('docs/cli.md', root), 'utf8');
    const table = cli.split('## Model settings and environment variables')[1]?.split('\n## ')[0] ?? '';
    const documented = new Set(table.match(/\b(?:TOOL_ORCHESTRATOR|OPENAI|DEEPSEEK)_[A-Z_]+/g));
    for (const name of ['PROVIDER', 'MODEL', 'BASE_URL', 'API_KEY']) {
      expect(documented, name).toContain(`TOOL_ORCHESTRATOR_${name}`);
    }
    for (const name of ['MODEL', 'BASE_URL', 'API_KEY']) {
      expect(documented).toContain(`OPENAI_${name}`);
      expect(documented).toContain(`DEEPSEEK_${name}`);
    }
    // The adapters the CLI does not drive document their variables in docs/adapters.md.
    const adapters = await readFile(new URL('docs/adapters.md', root), 'utf8');
    for (const name of adapters.match(/\b(?:ANTHROPIC|GEMINI)_[A-Z_]+/g) ?? []) documented.add(name);
    // Examples in folders (examples/temporal/) count too.
    const examples = (await readdir(new URL('examples/', root), { recursive: true })).filter((entry) =>
      /\.(?:ts|mts|mjs|js)$/.test(entry),
    );
    expect(examples).toContain('temporal/worker.ts');
    for (const example of examples) {
      const source = await readFile(new URL(`examples/${example}`, root), 'utf8');
      // A service's setting (the Redis port of scale-out.ts) is documented on the example's "Run with" line.
      const runWith = source.split('\n', 1)[0] ?? '';
      for (const [, name] of source.matchAll(/process\.env\['([A-Z_]+)'\]/g)) {
        if (runWith.startsWith('// Run with:') && runWith.includes(`$${name}`)) continue;
        expect(documented, `examples/${example} reads ${name}`).toContain(name);
      }
    }
  });
});

describe('a connection error names the URL it tried (issue 17 item 9)', () => {
  it('from --base-url, and from OPENAI_BASE_URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const flag = await runBuiltCli([
      'explore',
      'What is a?',
      '--repo',
      context.repo,
      '--base-url',
      url,
      '--model',
      'm',
    ]);
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain(
      `could not reach ${url} (given with --base-url): connection refused (ECONNREFUSED).`,
    );
    expect(flag.stderr).toContain('Is the server running?');
    const variable = await runBuiltCli(['explore', 'What is a?', '--repo', context.repo, '--model', 'm'], {
      env: { OPENAI_BASE_URL: url },
    });
    expect(variable.code).toBe(1);
    expect(variable.stderr).toContain(`could not reach ${url} (from OPENAI_BASE_URL)`);
  }, 30_000);
});
