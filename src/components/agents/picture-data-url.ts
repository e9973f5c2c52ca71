// An agent's picture from an image file: scaled down, cropped square and encoded as a data: URL short
// enough for the profile-image field (2,048 characters). Uploaded files are served only with the session
// token (decision 0007), which an <img> cannot send, so a picture for everyone to see travels inline.

/** The profile-image field's limit on the server (createAgentBody.profileImage). */
export const PICTURE_MAX_CHARS = 2_048;

/** Largest side first; the loop steps down until the encoding fits. */
const SIDES = [96, 80, 64, 56, 48, 40, 32];
const QUALITIES = [0.82, 0.7, 0.55, 0.4];

export class PictureError extends Error {}

export async function pictureDataUrl(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new PictureError('Choose an image (PNG, JPEG, WebP or GIF)');
  const bitmap = await createImageBitmap(file).catch(() => {
    throw new PictureError('This image could not be read');
  });
  try {
    const crop = Math.min(bitmap.width, bitmap.height);
    const sx = (bitmap.width - crop) / 2;
    const sy = (bitmap.height - crop) / 2;
    for (const side of SIDES) {
      const canvas = document.createElement('canvas');
      canvas.width = side;
      canvas.height = side;
      const ctx = canvas.getContext('2d');
      if (!ctx) break;
      // JPEG has no transparency: a white ground keeps transparent logos from turning black.
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, side, side);
      ctx.drawImage(bitmap, sx, sy, crop, crop, 0, 0, side, side);
      for (const quality of QUALITIES) {
        for (const type of ['image/webp', 'image/jpeg']) {
          const url = canvas.toDataURL(type, quality);
          // A browser that cannot encode a type falls back to PNG: skip that, it is rarely small enough.
          if (url.startsWith(`data:${type}`) && url.length <= PICTURE_MAX_CHARS) return url;
        }
      }
    }
  } finally {
    bitmap.close();
  }
  throw new PictureError('This image could not be made small enough; try a simpler one or a URL');
}
