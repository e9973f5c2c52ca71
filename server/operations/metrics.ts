// Prometheus metrics (prom-client) for operators: one registry per server (tests run several in a process),
// never the library's global one. HTTP latency is labelled by route pattern, never by raw URL, so ids in
// paths cannot multiply the series. Decision 0040.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client.ts';

export interface Metrics {
  registry: Registry;
  /** Sockets connected to this node (set by the realtime layer's collector). */
  connectedSockets: Gauge;
  /** Messages newly stored by posts (a repeat of a stored genId is not counted). */
  messagesStored: Counter;
  /** From a socket event's arrival to its acknowledgement, by event name. */
  ackSeconds: Histogram<'event'>;
  /** Posts and message ops the client's outbox sent again after they had been applied (answered as repeats). */
  outboxResends: Counter<'kind'>;
  /** Agent runs finished, by outcome. */
  agentRuns: Counter<'outcome'>;
  /** HTTP answers by method, route pattern and status class. */
  httpSeconds: Histogram<'method' | 'route' | 'status'>;
}

/** Socket round trips are milliseconds on a LAN and seconds on the bad links Lantern is for. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** `processMetrics`: also CPU, memory and event-loop figures (their monitors run only when someone scrapes). */
export function createMetrics(options: { processMetrics: boolean }): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'lantern_' });
  const registers = [registry];
  return {
    registry,
    connectedSockets: new Gauge({
      name: 'lantern_connected_sockets',
      help: 'Sockets connected to this node',
      registers,
    }),
    messagesStored: new Counter({
      name: 'lantern_messages_stored_total',
      help: 'Messages stored by posts on this node',
      registers,
    }),
    ackSeconds: new Histogram({
      name: 'lantern_ack_latency_seconds',
      help: 'Time from a socket event arriving to its acknowledgement',
      labelNames: ['event'],
      buckets: ACK_BUCKETS,
      registers,
    }),
    outboxResends: new Counter({
      name: 'lantern_outbox_resends_total',
      help: 'Posts (kind=post) and message ops (kind=op) received again after being applied, answered as repeats',
      labelNames: ['kind'],
      registers,
    }),
    agentRuns: new Counter({
      name: 'lantern_agent_runs_total',
      help: 'Agent runs finished on this node, by outcome',
      labelNames: ['outcome'],
      registers,
    }),
    httpSeconds: new Histogram({
      name: 'lantern_http_request_duration_seconds',
      help: 'HTTP answers by method, route pattern and status class',
      labelNames: ['method', 'route', 'status'],
      registers,
    }),
  };
}

/**
 * The metrics of the server that owns a database handle. Services deep in the message and agent code are
 * given the database, not the whole context; keyed by handle (as the group commit is), each server in a
 * process counts its own. A handle no server registered (a unit test's) counts nowhere.
 */
const byDatabase = new WeakMap<Db, Metrics>();

export function attachMetrics(db: Db, metrics: Metrics): void {
  byDatabase.set(db, metrics);
}

export function metricsOf(db: Db): Metrics | undefined {
  return byDatabase.get(db);
}
