// The first page of a PDF attachment drawn on a canvas with pdf.js (issue 4 item 8). The library and
// its worker load only when a PDF is shown.
import { useEffect, useRef, useState } from 'react';

const PREVIEW_WIDTH_PX = 240;

export function PdfPreview({ src, label }: { src: string; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | null = null;
    (async () => {
      const pdfjs = await import('pdfjs-dist');
      pdfjs.GlobalWorkerOptions.workerSrc = new URL(
        'pdfjs-dist/build/pdf.worker.min.mjs',
        import.meta.url,
      ).toString();
      const task = pdfjs.getDocument({ url: src });
      destroy = () => void task.destroy();
      const doc = await task.promise;
      const page = await doc.getPage(1);
      const base = page.getViewport({ scale: 1 });
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (PREVIEW_WIDTH_PX / base.width) * ratio });
      const el = canvas.current;
      if (cancelled || !el) return;
      el.width = viewport.width;
      el.height = viewport.height;
      el.style.width = `${viewport.width / ratio}px`;
      el.style.height = `${viewport.height / ratio}px`;
      await page.render({ canvas: el, viewport }).promise;
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [src]);
  if (failed) return null;
  return (
    <canvas ref={canvas} role="img" aria-label={label} className="block bg-white" data-testid="pdf-preview" />
  );
}
