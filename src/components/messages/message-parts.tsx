// What only some messages have: an agent's answer (thinking, tool calls, sources), a poll, files and a
// link's preview. Each loads after a channel's first rows, or with the first row that needs it, so the
// first rows of a channel do not wait for them (decision 0067). A row that meets one still loading shows
// its fallback (an agent's answer: its text) for the moment it takes; once loaded, rows render it at once.
import { type ComponentProps, type ComponentType, lazy, type ReactNode, Suspense, useState } from 'react';
import { type DeferredModule, deferredModule } from '../../app/deferred-module.ts';
import { loadChunk } from '../../app/reload-guard.ts';
import { afterFirstRows } from '../../first-screen/rows-painted.ts';
import type { AgentAnswerBody as AgentAnswerImpl } from './agent-answer.tsx';
import type { AttachmentList as AttachmentListImpl } from './attachment-list.tsx';
import type { LinkPreviewCard as LinkPreviewImpl } from './link-preview-card.tsx';
import type { PollCard as PollImpl } from './poll-card.tsx';

interface Part<P> {
  module: DeferredModule<ComponentType<P>>;
  Lazy: ComponentType<P>;
}

function part<P>(load: () => Promise<ComponentType<P>>): Part<P> {
  const module = deferredModule(() => loadChunk(load));
  return { module, Lazy: lazy(async () => ({ default: await module.load() })) };
}

function DeferredPart<P extends object>({
  part,
  props,
  fallback,
}: {
  part: Part<P>;
  props: P;
  fallback?: ReactNode;
}) {
  // Decided once per row: a part that arrives while the row is up does not re-mount it.
  const [Ready] = useState(() => part.module.current());
  if (Ready) return <Ready {...props} />;
  return (
    <Suspense fallback={fallback ?? null}>
      <part.Lazy {...props} />
    </Suspense>
  );
}

const agentAnswer = part<ComponentProps<typeof AgentAnswerImpl>>(
  async () => (await import('./agent-answer.tsx')).AgentAnswerBody,
);
const poll = part<ComponentProps<typeof PollImpl>>(async () => (await import('./poll-card.tsx')).PollCard);
const attachments = part<ComponentProps<typeof AttachmentListImpl>>(
  async () => (await import('./attachment-list.tsx')).AttachmentList,
);
const linkPreview = part<ComponentProps<typeof LinkPreviewImpl>>(
  async () => (await import('./link-preview-card.tsx')).LinkPreviewCard,
);

/** An agent's answer; `fallback` (its text) while the part loads. */
export function AgentAnswerBody({
  fallback,
  ...props
}: ComponentProps<typeof AgentAnswerImpl> & { fallback: ReactNode }) {
  return <DeferredPart part={agentAnswer} props={props} fallback={fallback} />;
}

export function PollCard(props: ComponentProps<typeof PollImpl>) {
  return <DeferredPart part={poll} props={props} />;
}

export function AttachmentList(props: ComponentProps<typeof AttachmentListImpl>) {
  return <DeferredPart part={attachments} props={props} />;
}

export function LinkPreviewCard(props: ComponentProps<typeof LinkPreviewImpl>) {
  return <DeferredPart part={linkPreview} props={props} />;
}

if (typeof window !== 'undefined') {
  afterFirstRows(() => {
    for (const { module } of [agentAnswer, poll, attachments, linkPreview] as Part<never>[])
      module.load().catch(() => {});
  });
}
