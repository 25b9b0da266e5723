// arbor's stdio client transport for MCP servers. The SDK's own keeps a whole message in
// memory and, past its 10 MB read buffer, throws and closes the connection: one 50 MB tool
// result killed the server. This one reads lines through a bounded LineReader, so an
// oversized message is consumed without being kept and the request it answered gets a cut
// result (oversized.ts); the server and every other request go on. It spawns the process
// as the SDK's did (no shell, the SDK's default inherited variables under the given env).
import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startTimer } from '../timers/timer.js';
import { LineReader } from './lineReader.js';
import { oversizedMessage } from './oversized.js';

/** The largest stdio message kept whole (larger ones are cut, see oversized.ts). */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;
/** How long a closing server gets after its stdin ends, and again after SIGTERM. */
const CLOSE_GRACE_MS = 2000;

export interface BoundedStdioParams {
  command: string;
  args?: string[];
  env: Record<string, string>;
  cwd: string;
  maxMessageBytes?: number;
}

export class BoundedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The server's stderr, readable before start() so nothing early is lost. */
  readonly stderr = new PassThrough();
  private child: ChildProcess | undefined;
  private readonly max: number;
  private readonly reader: LineReader;

  constructor(private readonly params: BoundedStdioParams) {
    this.max = params.maxMessageBytes ?? MAX_STDIO_MESSAGE_BYTES;
    this.reader = new LineReader(this.max, {
      line: (text) => this.deliver(text),
      oversized: (line) => {
        const outcome = oversizedMessage(line, this.max);
        if ('dropped' in outcome) this.onerror?.(new Error(outcome.dropped));
        else this.onmessage?.(outcome.message as JSONRPCMessage);
      },
    });
  }

  start(): Promise<void> {
    if (this.child) throw new Error('BoundedStdioTransport already started');
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, this.params.args ?? [], {
        env: { ...getDefaultEnvironment(), ...this.params.env },
        cwd: this.params.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        this.reader.clear();
        this.onclose?.();
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => this.reader.push(chunk));
      child.stderr?.pipe(this.stderr);
    });
  }

  private deliver(text: string): void {
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch (err) {
      this.onerror?.(new Error(`the server wrote a line that is not a JSON-RPC message: ${(err as Error).message}`));
      return;
    }
    this.onmessage?.(message);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(JSON.stringify(message) + '\n')) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.reader.clear();
    if (!child) return;
    const closed = new Promise<void>((r) => child.once('close', () => r()));
    const within = (ms: number) => Promise.race([closed, new Promise<void>((r) => startTimer(ms, r, { unref: true }))]);
    try {
      child.stdin?.end();
    } catch {
      // already gone
    }
    await within(CLOSE_GRACE_MS);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await within(CLOSE_GRACE_MS);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
