// Response headers for serving a stored file: its content type (only when well-formed), inline only for
// media a browser shows without running code, and never sniffed or able to script the app's origin.

/** Shown in the browser; everything else (including SVG, which can carry script) is a download. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/pdf)$/i;
const MIME = /^[\w.+-]+\/[\w.+-]+$/;

export function downloadHeaders(fileName: string, fileType: string): Record<string, string> {
  const contentType = MIME.test(fileType) ? fileType.toLowerCase() : 'application/octet-stream';
  const disposition = INLINE.test(contentType) ? 'inline' : 'attachment';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'content-type': contentType,
    'content-disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cache-control': 'private, max-age=3600',
  };
}
