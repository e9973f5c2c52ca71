// The MCP stdio transport over a child that server/processes/child-processes.ts started (the SDK's own
// transport spawns by itself and adds the server's HOME, PATH, SHELL, … to the child): newline-delimited
// JSON-RPC on stdin/stdout, stderr handed to a listener (the operator's log), stopped gently then firmly.
import type { ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** How long a child may take to exit after stdin closes, and again after SIGTERM, before it is killed. */
const STOP_GRACE_MS = 2_000;

export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly startChild: () => ChildProcess,
    private readonly onStderr: (text: string) => void,
  ) {}

  async start(): Promise<void> {
    const child = this.startChild();
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
    child.on('exit', () => {
      this.child = undefined;
      this.onclose?.();
    });
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        try {
          const message = this.buffer.readMessage();
          if (message === null) break;
          this.onmessage?.(message);
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        }
      }
    });
    // Read, always: a pipe nobody reads fills up and blocks the child.
    child.stderr?.on('data', (chunk: Buffer) => this.onStderr(chunk.toString('utf8')));
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    this.buffer.clear();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const within = (ms: number) =>
      Promise.race([
        exited.then(() => true),
        new Promise<boolean>((r) => setTimeout(() => r(false), ms).unref()),
      ]);
    child.stdin?.end();
    if (await within(STOP_GRACE_MS)) return;
    child.kill('SIGTERM');
    if (await within(STOP_GRACE_MS)) return;
    child.kill('SIGKILL');
  }
}
