// The messages between a fuzz client's thread and the held network in the test's thread. Everything the
// client's engine sends (emits, REST requests) goes up; the network sends each delivery down only when
// the test flushes it.
import type { ClientEventName } from '../../worker/socket.ts';

export type UpMessage =
  | { kind: 'open'; options: Record<string, unknown> }
  | { kind: 'wantConnect' }
  | { kind: 'close' }
  | { kind: 'emit'; ackId: number; event: ClientEventName; payload: unknown }
  | {
      kind: 'fetch';
      requestId: number;
      path: string;
      method: string;
      headers: Record<string, string>;
      body: string | null;
    }
  | { kind: 'reply'; callId: number; value?: unknown; error?: string };

export type DownMessage =
  | { kind: 'connected' }
  | { kind: 'disconnected'; reason: string }
  | { kind: 'event'; event: string; args: unknown[] }
  | { kind: 'ack'; ackId: number; value: unknown }
  | { kind: 'response'; requestId: number; status: number; body: string }
  | { kind: 'networkError'; requestId: number }
  | { kind: 'call'; callId: number; command: string; args: unknown[] };
