// A picture's thumbnail on its card in the composer (issue 15 item 6): drawn from the bytes this device
// keeps until the upload is done, or, for an uploaded one (a draft restored after a reload), fetched like
// any attachment. Other files, and a picture that cannot be read, keep their icon.
import { ImageIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { chosenFile } from '../../data/uploads.ts';
import { useFileObjectUrl } from './file-fetch.ts';

/** An object URL of the bytes this device keeps for the attachment: undefined while looking, null if none. */
function useChosenFileUrl(attachmentId: string): string | null | undefined {
  const [found, setFound] = useState<{ id: string; url: string | null } | null>(null);
  useEffect(() => {
    let live = true;
    let objectUrl: string | null = null;
    chosenFile(attachmentId)
      .catch(() => null)
      .then((blob) => {
        if (!live) return;
        objectUrl = blob ? URL.createObjectURL(blob) : null;
        setFound({ id: attachmentId, url: objectUrl });
      });
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [attachmentId]);
  return found && found.id === attachmentId ? found.url : undefined;
}

export function ComposerThumbnail({
  attachmentId,
  fileName,
  uploadedUrl,
}: {
  attachmentId: string;
  fileName: string;
  /** The server's address once uploaded, for when this device no longer has the bytes. */
  uploadedUrl: string | null;
}) {
  const local = useChosenFileUrl(attachmentId);
  const remote = useFileObjectUrl(local === null ? uploadedUrl : null);
  const src = local ?? (remote && remote !== 'error' ? remote : null);
  if (!src) return <ImageIcon className="size-4" aria-hidden />;
  return <img src={src} alt={fileName} className="size-full rounded object-cover" />;
}
