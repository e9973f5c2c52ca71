// An agent's knowledge: the documents it answers from, each with its state (processing, ready with its
// passages, failed with the reason), and for admins adding text, files or a web page, and removing them.
import { BookOpen, FileText, FileUp, Globe, Plus, Trash2, Type } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { type FormEvent, useId, useRef, useState } from 'react';
import type { KnowledgeSource } from '../../../schemas/protocol/index.ts';
import { KNOWLEDGE_SOURCE_MAX_CHARS } from '../../../schemas/protocol/index.ts';
import { errorMessage, notifyError } from '../../app/notify.ts';
import { toast } from '../../app/toast.ts';
import {
  addFileKnowledge,
  addTextKnowledge,
  addUrlKnowledge,
  deleteKnowledgeSource,
  useKnowledgeSources,
} from '../../data/agents.ts';
import { formatFileSize } from '../messages/file-size.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { Dialog } from '../ui/dialog.tsx';
import { FieldMessage, Input, Label } from '../ui/input.tsx';
import { EmptyState } from '../ui/states.tsx';
import { textareaClass } from './agent-form.tsx';
import { compactCount, plural, shortDate } from './format.ts';
import { ListState } from './list-state.tsx';
import { StatusChip } from './status-chip.tsx';

const ACCEPTED =
  '.pdf,.docx,.md,.markdown,.txt,.html,.htm,application/pdf,text/plain,text/markdown,text/html';

export function KnowledgeSourcesPanel({
  institutionId,
  agentId,
  canManage,
}: {
  institutionId: string;
  agentId: string;
  canManage: boolean;
}) {
  const sources = useKnowledgeSources(institutionId, agentId);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<KnowledgeSource | null>(null);
  const list = sources.data;

  return (
    <section aria-labelledby={`${agentId}-knowledge`} className="flex flex-col gap-3">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="min-w-0">
          <h2 id={`${agentId}-knowledge`} className="text-sm font-semibold">
            Knowledge
          </h2>
          <p className="text-[13px] text-muted">
            Documents it searches before answering, and cites. Up to{' '}
            {KNOWLEDGE_SOURCE_MAX_CHARS.toLocaleString()} characters each.
          </p>
        </div>
        {canManage ? (
          <Button size="sm" className="self-start sm:self-auto" onClick={() => setAdding(true)}>
            <Plus aria-hidden />
            Add knowledge
          </Button>
        ) : null}
      </div>
      <ListState
        list={list}
        error={sources.error}
        empty={
          <EmptyState
            icon={BookOpen}
            title="No knowledge yet"
            className="rounded-xl border border-dashed border-line py-8"
          >
            {canManage
              ? 'Add a handbook, a policy or a page of FAQs; the agent quotes the passages that match a question.'
              : 'An admin has not given this agent any documents yet.'}
          </EmptyState>
        }
      >
        {(items) => (
          <ul
            className="divide-y divide-line rounded-xl border border-line bg-surface"
            aria-label="Knowledge sources"
          >
            {items.map((source) => (
              <SourceRow
                key={source.id}
                source={source}
                onRemove={canManage ? () => setRemoving(source) : undefined}
              />
            ))}
          </ul>
        )}
      </ListState>
      {canManage ? (
        <AddKnowledgeDialog
          open={adding}
          onOpenChange={setAdding}
          institutionId={institutionId}
          agentId={agentId}
        />
      ) : null}
      <Dialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove “${removing?.title ?? ''}”?`}
        description="The agent stops answering from it. Answers already given keep their text."
      >
        <div className="flex justify-end gap-2 pt-3">
          <Button variant="ghost" onClick={() => setRemoving(null)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            onClick={() => {
              if (removing)
                void deleteKnowledgeSource(institutionId, agentId, removing.id).catch(notifyError);
              setRemoving(null);
            }}
          >
            Remove
          </Button>
        </div>
      </Dialog>
    </section>
  );
}

const TYPE_ICONS = { text: Type, file: FileText, url: Globe } as const;

function SourceRow({ source, onRemove }: { source: KnowledgeSource; onRemove?: () => void }) {
  const Icon = TYPE_ICONS[source.type];
  return (
    <li className="flex items-start gap-3 px-3 py-3" aria-label={source.title}>
      <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg bg-selected text-muted">
        <Icon className="size-4" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
          <span className="min-w-0 truncate text-sm font-medium">{source.title}</span>
          <SourceStatus source={source} />
        </div>
        <p className={cn('mt-0.5 text-xs', source.status === 'failed' ? 'text-danger' : 'text-muted')}>
          {source.status === 'failed'
            ? (source.error ?? 'It could not be read')
            : source.status === 'ready'
              ? `${plural(source.chunkCount, 'passage')} · ${compactCount(source.size)} characters · added ${shortDate(source.createdAt)}`
              : 'Reading and indexing…'}
        </p>
      </div>
      {onRemove ? (
        <Button
          variant="ghost"
          size="icon"
          className="shrink-0 text-muted"
          aria-label={`Remove ${source.title}`}
          onClick={onRemove}
        >
          <Trash2 />
        </Button>
      ) : null}
    </li>
  );
}

function SourceStatus({ source }: { source: KnowledgeSource }) {
  if (source.status === 'processing') return <StatusChip tone="working">Processing</StatusChip>;
  if (source.status === 'failed') return <StatusChip tone="bad">Failed</StatusChip>;
  return <StatusChip tone="good">Ready</StatusChip>;
}

type AddTab = 'text' | 'file' | 'url';

function AddKnowledgeDialog({
  open,
  onOpenChange,
  institutionId,
  agentId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  institutionId: string;
  agentId: string;
}) {
  const [tab, setTab] = useState<AddTab>('text');
  const close = () => onOpenChange(false);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add knowledge"
      description="Text is read at once; files and pages are read by the server and show their state here."
      className="max-w-lg"
    >
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as AddTab)} className="flex flex-col gap-4 pt-2">
        <Tabs.List
          className="grid grid-cols-3 gap-1 rounded-lg bg-selected p-1"
          aria-label="Kind of knowledge"
        >
          {(
            [
              ['text', Type, 'Text'],
              ['file', FileUp, 'File'],
              ['url', Globe, 'Web page'],
            ] as const
          ).map(([value, Icon, label]) => (
            <Tabs.Trigger
              key={value}
              value={value}
              className="flex h-8 items-center justify-center gap-1.5 rounded-md text-[13px] font-medium text-muted outline-none focus-visible:ring-2 focus-visible:ring-ring data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-xs"
            >
              <Icon className="size-3.5" aria-hidden />
              {label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="text" className="outline-none">
          <TextForm institutionId={institutionId} agentId={agentId} onDone={close} />
        </Tabs.Content>
        <Tabs.Content value="file" className="outline-none">
          <FileForm institutionId={institutionId} agentId={agentId} onDone={close} />
        </Tabs.Content>
        <Tabs.Content value="url" className="outline-none">
          <UrlForm institutionId={institutionId} agentId={agentId} onDone={close} />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}

interface FormProps {
  institutionId: string;
  agentId: string;
  onDone: () => void;
}

/** A form's one action: busy while it runs, the server's message when it fails, onDone when it succeeds. */
function useSubmission(onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<unknown>) {
    setBusy(true);
    setError(null);
    try {
      await action();
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, run };
}

function TextForm({ institutionId, agentId, onDone }: FormProps) {
  const id = useId();
  const [title, setTitle] = useState('');
  const [text, setText] = useState('');
  const { busy, error, setError, run } = useSubmission(onDone);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!title.trim()) return setError('Give it a title');
    if (!text.trim()) return setError('Paste or write the text');
    void run(() => addTextKnowledge(institutionId, agentId, { title: title.trim(), text }));
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input
          id={`${id}-title`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="e.g. Returns policy"
          maxLength={200}
          autoComplete="off"
        />
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-text`}>Text</Label>
        <textarea
          id={`${id}-text`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={8}
          placeholder="Paste the document here"
          className={cn(textareaClass, 'resize-y')}
        />
        <FieldMessage>{text.length.toLocaleString()} characters</FieldMessage>
      </div>
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Add text
        </Button>
      </div>
    </form>
  );
}

function FileForm({ institutionId, agentId, onDone }: FormProps) {
  const input = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload() {
    if (files.length === 0) return setError('Choose a file');
    setBusy(true);
    setError(null);
    const failed: string[] = [];
    for (const file of files) {
      try {
        await addFileKnowledge(institutionId, agentId, file);
      } catch (err) {
        failed.push(`${file.name}: ${errorMessage(err)}`);
      }
    }
    setBusy(false);
    if (failed.length === 0) return onDone();
    setFiles(files.filter((f) => failed.some((line) => line.startsWith(`${f.name}:`))));
    setError(failed.join('\n'));
    if (failed.length < files.length) toast.success('The other files were added');
  }

  return (
    <div className="flex flex-col gap-3">
      <button
        type="button"
        onClick={() => input.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          setFiles(Array.from(e.dataTransfer.files));
        }}
        className={cn(
          'flex flex-col items-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center outline-none focus-visible:ring-2 focus-visible:ring-ring',
          dragging ? 'border-accent bg-accent-soft/40' : 'border-line-strong hover:bg-hover',
        )}
      >
        <FileUp className="size-6 text-muted" aria-hidden />
        <span className="text-sm font-medium">Choose files or drop them here</span>
        <span className="text-xs text-muted">PDF, Word (.docx), Markdown, plain text or HTML</span>
      </button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ACCEPTED}
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose documents"
        onChange={(e) => {
          setFiles(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
      {files.length > 0 ? (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Chosen files">
          {files.map((f) => (
            <li key={f.name} className="flex items-center gap-2 rounded-md bg-surface-2 px-2 py-1.5">
              <FileText className="size-4 shrink-0 text-muted" aria-hidden />
              <span className="min-w-0 flex-1 truncate">{f.name}</span>
              <span className="text-xs text-muted tabular-nums">{formatFileSize(f.size)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {error ? (
        <FieldMessage error>
          <span className="whitespace-pre-line">{error}</span>
        </FieldMessage>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => void upload()} loading={busy} disabled={files.length === 0}>
          Upload {files.length > 1 ? `${files.length} files` : ''}
        </Button>
      </div>
    </div>
  );
}

function UrlForm({ institutionId, agentId, onDone }: FormProps) {
  const id = useId();
  const [url, setUrl] = useState('');
  const [title, setTitle] = useState('');
  const { busy, error, setError, run } = useSubmission(onDone);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.trim())) return setError('Enter an http(s) address');
    void run(() => addUrlKnowledge(institutionId, agentId, { url: url.trim(), title: title.trim() }));
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-url`}>Address</Label>
        <Input
          id={`${id}-url`}
          type="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder="https://intranet.example.com/handbook"
          autoComplete="off"
        />
        <FieldMessage>The server fetches the page once and keeps its text.</FieldMessage>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-title`}>Title (optional)</Label>
        <Input
          id={`${id}-title`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder="The page's own title"
          maxLength={200}
          autoComplete="off"
        />
      </div>
      {error ? <FieldMessage error>{error}</FieldMessage> : null}
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Add page
        </Button>
      </div>
    </form>
  );
}
