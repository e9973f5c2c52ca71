// Uploads the files kept in IndexedDB, one attempt per file at a time: sign → PUT the bytes (progress
// into the upload record) → register. A dropped connection leaves the file queued for the next connect;
// a refusal (too large, not allowed) marks it failed with the server's message until retried.
import type { RxCollection } from 'rxdb';
import { filter, firstValueFrom, of, take, timeout } from 'rxjs';
import type { RecordDoc, UploadState } from '../schemas/collections.ts';
import { getFileBlob, removeFileBlob } from '../src/store/file-blobs.ts';
import { ApiError, type Http } from '../src/store/http.ts';
import { appOrigin, mayCarryToken, sameOriginUrl } from '../src/store/own-origin.ts';
import { recordKey } from '../src/store/records.ts';
import { getUpload, patchUpload } from '../src/store/uploads.ts';
import type { UploadProgress } from './events.ts';

export interface UploaderDeps {
  records: RxCollection<RecordDoc>;
  http: Http;
  /** API origin; relative upload addresses (the server's own store) are resolved against it. */
  baseUrl: string;
  fetch?: typeof fetch;
  getToken(): Promise<string | null>;
  isConnected(): boolean;
  /** Every progress report of a PUT (the store gets one per 5%). */
  onProgress?: (progress: UploadProgress) => void;
  log?: (message: string, error?: unknown) => void;
}

/** How long a tab's new upload may take to reach this worker's store. */
const ARRIVAL_WAIT_MS = 5000;

export class Uploader {
  private readonly deps: UploaderDeps;
  private readonly running = new Map<string, Promise<UploadState | null>>();

  constructor(deps: UploaderDeps) {
    this.deps = deps;
  }

  /**
   * Starts every queued upload (after a connect, or when a file was chosen). `expected` are uploads a tab
   * has just written: this worker's query may not see them yet (another instance's write reaches its
   * cached query a moment later), so each is awaited until it shows up, for a few seconds at most.
   */
  async uploadAll(expected: readonly string[] = []): Promise<void> {
    if (!this.deps.isConnected()) return;
    const rows = await this.deps.records.find({ selector: { kind: 'upload' } }).exec();
    const queued = rows.map((r) => r.data as UploadState).filter((u) => u.status === 'queued');
    const seen = new Set(queued.map((u) => u.id));
    const late = expected.filter((id) => !seen.has(id));
    await Promise.all([
      ...queued.map((u) => this.upload(u.id)),
      ...late.map(async (id) => {
        if (await this.arrives(id)) await this.upload(id);
      }),
    ]);
  }

  /** Whether the upload record `id` shows up in this worker's store within a few seconds. */
  private async arrives(id: string): Promise<boolean> {
    const doc = this.deps.records.findOne(recordKey('upload', id)).$.pipe(
      filter((d) => d !== null),
      take(1),
      timeout({ first: ARRIVAL_WAIT_MS, with: () => of(null) }),
    );
    return (await firstValueFrom(doc, { defaultValue: null })) !== null;
  }

  /** Uploads one file unless it is done or failed; concurrent callers share the attempt. */
  upload(id: string): Promise<UploadState | null> {
    const current = this.running.get(id);
    if (current) return current;
    const attempt = this.attempt(id).finally(() => this.running.delete(id));
    this.running.set(id, attempt);
    return attempt;
  }

  private async attempt(id: string): Promise<UploadState | null> {
    const db = { records: this.deps.records };
    const state = await getUpload(db, id);
    if (!state || state.status === 'uploaded' || state.status === 'failed') return state;
    if (!this.deps.isConnected()) return state;
    try {
      await patchUpload(db, id, { status: 'uploading', error: null });
      let fileKey = state.fileKey;
      if (!fileKey) {
        const blob = await getFileBlob(id);
        if (!blob) throw new Error('The file is no longer on this device');
        fileKey = await this.putBytes(state, blob);
        await patchUpload(db, id, { fileKey, loaded: state.fileSize });
      }
      const { file } = await this.deps.http.call('registerFile', {
        body: {
          id,
          institutionId: state.institutionId,
          channelId: state.channelId,
          fileName: state.fileName,
          fileType: state.fileType,
          fileSize: state.fileSize,
          fileKey,
        },
      });
      const attachment = {
        id: file.id,
        fileName: file.fileName,
        fileType: file.fileType,
        fileSize: file.fileSize,
        url: file.url,
      };
      const done = await patchUpload(db, id, { status: 'uploaded', attachment, loaded: state.fileSize });
      await removeFileBlob(id).catch(() => undefined);
      return done;
    } catch (error) {
      const transient = isTransient(error);
      this.deps.log?.(`Upload of ${state.fileName} ${transient ? 'interrupted' : 'failed'}`, error);
      return patchUpload(db, id, {
        status: transient ? 'queued' : 'failed',
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }

  /** Sign, then PUT the bytes with the file's content type; returns the file key. */
  private async putBytes(state: UploadState, blob: Blob): Promise<string> {
    const query = new URLSearchParams({
      institutionId: state.institutionId,
      size: String(blob.size),
      fileName: state.fileName,
      fileType: state.fileType,
    });
    const ticket = await this.deps.http.call('signUpload', { query });
    // Relative: the server's own store, under the API's origin. An S3 address never gets our token.
    const own = sameOriginUrl(ticket.uploadUrl, appOrigin());
    const url = own ? this.deps.baseUrl + own.pathname + own.search : ticket.uploadUrl;
    const headers: Record<string, string> = { 'content-type': state.fileType };
    const token = own && mayCarryToken(url, this.deps.baseUrl) ? await this.deps.getToken() : null;
    if (token) headers.authorization = `Bearer ${token}`;
    const db = { records: this.deps.records };
    let reported = 0;
    const onProgress = (loaded: number) => {
      this.deps.onProgress?.({ uploadId: state.id, loaded, total: state.fileSize });
      // A record write per 5% keeps the bar smooth without flooding the store.
      if (loaded - reported < state.fileSize / 20 && loaded < state.fileSize) return;
      reported = loaded;
      void patchUpload(db, state.id, { loaded });
    };
    const status = await putWithProgress(url, blob, headers, onProgress, this.deps.fetch);
    // 409: the bytes arrived on an earlier try whose answer was lost.
    if (status.ok || status.code === 409) return ticket.fileKey;
    throw new ApiError(status.code, status.message);
  }
}

interface PutOutcome {
  ok: boolean;
  code: number;
  message: string;
}

/** XMLHttpRequest where there is one (upload progress); fetch elsewhere (progress at the end). */
function putWithProgress(
  url: string,
  blob: Blob,
  headers: Record<string, string>,
  onProgress: (loaded: number) => void,
  doFetch?: typeof fetch,
): Promise<PutOutcome> {
  if (typeof XMLHttpRequest !== 'undefined' && !doFetch) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', url);
      for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () =>
        resolve({ ok: xhr.status < 300, code: xhr.status, message: messageOf(xhr.responseText) });
      xhr.onerror = () => reject(new TypeError('Network error during upload'));
      xhr.ontimeout = () => reject(new TypeError('Upload timed out'));
      xhr.send(blob);
    });
  }
  const f = doFetch ?? ((input, init) => fetch(input, init));
  return f(url, { method: 'PUT', headers, body: blob }).then(async (res) => {
    onProgress(blob.size);
    return { ok: res.ok, code: res.status, message: messageOf(await res.text()) };
  });
}

function messageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : '';
  } catch {
    return '';
  }
}

/** Network trouble and server hiccups are retried on reconnect; a 4xx answer is final. */
function isTransient(error: unknown): boolean {
  if (error instanceof ApiError) return error.status >= 500 || error.status === 0;
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError');
}
