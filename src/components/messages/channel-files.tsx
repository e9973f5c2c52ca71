// The Files tab of the channel's side panel (issue 4 item 7): the channel's files, newest first, with a
// name search; each row downloads its file. From the server when connected, from the store offline.
import { Download, File, FileText, Film, Image, Loader2, Music, Paperclip, Presentation } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { FileEntity } from '../../../schemas/protocol/index.ts';
import { useWorkspace } from '../../app/workspace-context.ts';
import { useAuthorName } from '../../data/deleted-members.ts';
import { useChannelFiles } from '../../data/files.ts';
import { Input } from '../ui/input.tsx';
import { EmptyState, Spinner } from '../ui/states.tsx';
import { attachmentKind } from './attachment-list.tsx';
import { dayLabel, fullTimeLabel, timeLabel } from './day.ts';
import { downloadWithNotice } from './file-download.ts';
import { formatFileSize } from './file-size.ts';

const ICONS = {
  image: Image,
  video: Film,
  audio: Music,
  pdf: FileText,
  word: FileText,
  slides: Presentation,
  other: File,
} as const;

/** Typing settles before the server is asked again (each search is one request). */
const SEARCH_DELAY_MS = 250;

export function ChannelFiles({ institutionId, channelId }: { institutionId: string; channelId: string }) {
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(typed), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const files = useChannelFiles(institutionId, channelId, search);
  return (
    <div className="flex flex-col gap-3">
      <Input
        type="search"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        placeholder="Search files"
        aria-label="Search files"
      />
      {files === undefined ? (
        <Spinner />
      ) : files.length === 0 ? (
        <EmptyState icon={Paperclip} title={search.trim() ? 'No matching files' : 'No files yet'}>
          {search.trim() ? 'No file name here contains that.' : 'Files shared in this channel show up here.'}
        </EmptyState>
      ) : (
        <ul className="space-y-1" aria-label="Files">
          {files.map((f) => (
            <li key={f.id}>
              <FileRow file={f} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function FileRow({ file }: { file: FileEntity }) {
  const workspace = useWorkspace();
  const [busy, setBusy] = useState(false);
  const Icon = ICONS[attachmentKind(file)];
  const author = workspace.membersById.get(file.memberId);
  const name = useAuthorName(workspace.institution.id, file.memberId, author);
  const created = new Date(file.createdAt);
  async function download() {
    setBusy(true);
    await downloadWithNotice(file.url, file.fileName);
    setBusy(false);
  }
  return (
    <button
      type="button"
      onClick={() => void download()}
      disabled={busy || file.isUploading}
      aria-label={`Download ${file.fileName}`}
      className="flex w-full items-center gap-3 rounded-lg border border-line bg-surface px-3 py-2 text-left hover:border-line-strong hover:bg-surface-2"
      data-testid="channel-file"
    >
      <span className="flex size-9 shrink-0 items-center justify-center rounded-md bg-surface-2 text-muted">
        <Icon className="size-4" aria-hidden />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate text-[13px] font-medium" title={file.fileName}>
          {file.fileName}
        </span>
        <span className="block truncate text-[11px] text-muted">
          {formatFileSize(file.fileSize)} · {name} ·{' '}
          <time dateTime={file.createdAt} title={fullTimeLabel(created)}>
            {dayLabel(created)} {timeLabel(created)}
          </time>
        </span>
      </span>
      {busy ? (
        <Loader2 className="size-4 shrink-0 animate-spin text-muted" aria-hidden />
      ) : (
        <Download className="size-4 shrink-0 text-muted" aria-hidden />
      )}
    </button>
  );
}
