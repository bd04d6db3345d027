import type { TraceEvent } from '../tracing/trace-events.js';
import { traceContentText } from '../tracing/cap-trace-text.js';
import { formatMs, oneLine, plural, summarizeToolOutput } from './progress-text.js';
import type { TerminalStyle } from './terminal-style.js';
import { clearLine, fitToWidth } from './terminal-style.js';

/** Options of {@link ProgressPrinter}. */
export interface ProgressPrinterOptions {
  readonly write: (text: string) => void;
  readonly style: TerminalStyle;
  /** The terminal's width, read at each line (it changes on resize). @default 80 when it returns undefined */
  readonly columns: () => number | undefined;
  /** Clock for elapsed times. @default Date.now */
  readonly now?: () => number;
  /** How often the status line (spinner and elapsed time) is redrawn, in ms; 0 draws it only on events. @default 100 */
  readonly tickMs?: number;
}

/** A model call the printer is waiting on or watching. */
interface ModelCall {
  label: string;
  readonly startedAt: number;
  labelPrinted: boolean;
  firstTokenAt: number | undefined;
  contentCharacters: number;
}

const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const thinkingPrefix = '  thinking: ';
const defaultColumns = 80;

/**
 * Live progress of an explorer run on a terminal, from its trace events. Each model call gets a line
 * (`turn 2`, `report call`, `repair call`) printed when its first output arrives, with the streamed
 * reasoning wrapped beneath it, then how long it took; each tool call gets a line with its arguments,
 * duration and a one-line result. While the model has sent nothing, or streams an answer that is not
 * shown, a status line at the bottom shows a spinner and the elapsed time. No line is longer than the
 * terminal is wide.
 */
export class ProgressPrinter {
  readonly #options: ProgressPrinterOptions;
  readonly #now: () => number;
  readonly #startedAt: number;
  #call: ModelCall | undefined;
  #pendingToolCalls = 0;
  readonly #arguments = new Map<string, string>();
  #statusShown = false;
  #frame = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #stopped = false;
  /** Reasoning being printed: the column reached, and the word not yet complete. */
  #thinking: { column: number; word: string } | undefined;

  constructor(options: ProgressPrinterOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#startedAt = this.#now();
  }

  /** Prints lines before the run starts (the header), fitted to the width. */
  line(text: string, style: (text: string) => string = (plain) => plain): void {
    this.#clearStatus();
    this.#closeThinking();
    this.#options.write(`${style(fitToWidth(text, this.#columns()))}\n`);
    this.#drawStatus();
  }

  /** The trace sink. */
  readonly handle = (event: TraceEvent): void => {
    switch (event.type) {
      case 'run_start':
        this.#beginCall(`turn ${event.turn + 1}`);
        break;
      case 'reasoning_delta':
        this.#firstToken();
        this.#printLabel();
        this.#writeThinking(event.data.delta);
        break;
      case 'content_delta':
        this.#firstToken();
        if (this.#call !== undefined) this.#call.contentCharacters += event.data.delta.length;
        this.#drawStatus();
        break;
      case 'tool_call_delta':
        this.#firstToken();
        this.#drawStatus();
        break;
      case 'llm_call': {
        this.#printLabel();
        const toolCalls = event.data.response.tool_calls?.length ?? 0;
        const call = this.#call;
        const firstToken =
          call?.firstTokenAt === undefined
            ? ''
            : `, first token after ${formatMs(call.firstTokenAt - call.startedAt)}`;
        const tokens = event.data.usage === undefined ? '' : `, ${event.data.usage.totalTokens} tokens`;
        const calls = toolCalls === 0 ? '' : `, ${plural(toolCalls, 'tool call')}`;
        this.#call = undefined;
        this.line(
          `  answered in ${formatMs(event.data.durationMs)}${firstToken}${tokens}${calls}`,
          this.#options.style.dim,
        );
        break;
      }
      case 'tool_call':
        this.#pendingToolCalls++;
        this.#arguments.set(event.data.toolCall.id, event.data.toolCall.function.arguments);
        break;
      case 'tool_result': {
        const args = oneLine(this.#arguments.get(event.data.toolCallId) ?? '', 200);
        const result =
          event.data.error === undefined
            ? summarizeToolOutput(traceContentText(event.data.content))
            : `error: ${oneLine(event.data.error, 200)}`;
        this.line(`  ${event.data.name}(${args}) ${formatMs(event.data.durationMs)} -> ${result}`);
        this.#pendingToolCalls = Math.max(0, this.#pendingToolCalls - 1);
        // The next model call starts once every result of the turn is in.
        if (this.#pendingToolCalls === 0) this.#beginCall(`turn ${event.turn + 2}`);
        break;
      }
      case 'warning':
        if (event.data.code === 'max_turns') {
          this.line(`  turn budget used; asking for the report with tools off`, this.#options.style.yellow);
          if (this.#call !== undefined && !this.#call.labelPrinted) this.#call.label = 'report call';
          else this.#beginCall('report call');
        } else if (event.data.code === 'output_invalid') {
          // The report missed its schema: the next call is the repair call.
          this.#beginCall('repair call (the report did not match its schema)');
        } else {
          this.line(`  warning: ${oneLine(event.data.message, 300)}`, this.#options.style.yellow);
        }
        break;
      case 'run_end':
        this.#closeThinking();
        this.#clearStatus();
        this.#call = undefined;
        this.#pendingToolCalls = 0;
        break;
      default:
        break;
    }
  };

  /** Milliseconds since the printer was made. */
  elapsedMs(): number {
    return this.#now() - this.#startedAt;
  }

  /** Stops the status line for good (after the run, or on Ctrl-C); later `line` calls still print. */
  stop(): void {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#closeThinking();
    this.#clearStatus();
    this.#call = undefined;
  }

  #beginCall(label: string): void {
    this.#call = {
      label,
      startedAt: this.#now(),
      labelPrinted: false,
      firstTokenAt: undefined,
      contentCharacters: 0,
    };
    const tickMs = this.#options.tickMs ?? 100;
    if (this.#timer === undefined && tickMs > 0 && !this.#stopped) {
      this.#timer = setInterval(() => {
        this.#frame++;
        this.#drawStatus();
      }, tickMs);
      this.#timer.unref();
    }
    this.#drawStatus();
  }

  #firstToken(): void {
    if (this.#call !== undefined && this.#call.firstTokenAt === undefined)
      this.#call.firstTokenAt = this.#now();
  }

  /** The call's own line goes out with its first output, so reasoning lands under the right turn. */
  #printLabel(): void {
    const call = this.#call;
    if (call === undefined || call.labelPrinted) return;
    call.labelPrinted = true;
    this.line(call.label, this.#options.style.bold);
  }

  #drawStatus(): void {
    const call = this.#call;
    if (call === undefined || this.#thinking !== undefined || this.#stopped) return;
    const elapsed = formatMs(this.#now() - call.startedAt);
    const doing =
      call.firstTokenAt === undefined
        ? `waiting for the model ${elapsed}`
        : `the model is writing ${elapsed}${call.contentCharacters > 0 ? `, ${call.contentCharacters} characters` : ''}`;
    const label = call.labelPrinted ? '' : `${call.label}: `;
    const frame = spinnerFrames[this.#frame % spinnerFrames.length];
    const text = fitToWidth(`${frame} ${label}${doing}`, this.#columns() - 1);
    this.#options.write(`${clearLine}${this.#options.style.cyan(text)}`);
    this.#statusShown = true;
  }

  #clearStatus(): void {
    if (!this.#statusShown) return;
    this.#options.write(clearLine);
    this.#statusShown = false;
  }

  #writeThinking(delta: string): void {
    if (this.#thinking === undefined) {
      this.#clearStatus();
      this.#options.write(this.#options.style.dim(thinkingPrefix.trimEnd()));
      this.#thinking = { column: thinkingPrefix.trimEnd().length, word: '' };
    }
    const thinking = this.#thinking;
    const words = (thinking.word + delta.replace(/\s+/g, ' ')).split(' ');
    thinking.word = words.pop() ?? '';
    for (const word of words) this.#thinkingWord(word);
  }

  /** Writes one word of reasoning, starting a new indented line when it would pass the edge. */
  #thinkingWord(word: string): void {
    const thinking = this.#thinking;
    if (thinking === undefined || word === '') return;
    const columns = this.#columns();
    // A run of text with no space, longer than a line, is cut where it reaches the edge.
    const room = columns - thinkingPrefix.length;
    if (word.length > room) {
      for (let start = 0; start < word.length; start += room)
        this.#thinkingWord(word.slice(start, start + room));
      return;
    }
    if (thinking.column + 1 + word.length > columns) {
      this.#options.write(`\n${' '.repeat(thinkingPrefix.length - 1)}`);
      thinking.column = thinkingPrefix.length - 1;
    }
    this.#options.write(this.#options.style.dim(` ${word}`));
    thinking.column += 1 + word.length;
  }

  #closeThinking(): void {
    const thinking = this.#thinking;
    if (thinking === undefined) return;
    this.#thinkingWord(thinking.word);
    this.#thinking = undefined;
    this.#options.write('\n');
  }

  #columns(): number {
    const columns = this.#options.columns();
    return columns === undefined ? defaultColumns : Math.max(columns, 20);
  }
}
