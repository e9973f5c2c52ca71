// Link previews (decision 0053): the title, description, site name and picture of a web page a message
// links to, read by the server through the guarded outbound path. The picture is served by our server, so
// a viewer's browser never contacts the linked site. A workspace's admins may switch previews off.
import { z } from 'zod';

/** Longest address a preview is asked for; longer ones are not worth previewing. */
export const LINK_PREVIEW_URL_MAX = 2048;

export const linkPreviewQuery = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Give the address of the page to preview')
    .max(LINK_PREVIEW_URL_MAX, `An address to preview has at most ${LINK_PREVIEW_URL_MAX} characters`),
});

export const linkPreview = z.object({
  /** The address asked for, as parsed (the key the client keeps it under). */
  url: z.string(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  siteName: z.string().nullable(),
  /**
   * Our own address of the page's picture (GET .../link-previews/image?url=…, the bearer token like file
   * downloads); null when the page names none.
   */
  imageUrl: z.string().nullable(),
});
export type LinkPreview = z.infer<typeof linkPreview>;

/**
 * GET .../link-previews?url=…: the preview, or null with the reason when the page cannot be previewed (not
 * HTML, did not answer, refused by the address guard after a redirect, nothing to show).
 */
export const linkPreviewResponse = z.object({
  preview: linkPreview.nullable(),
  reason: z.string().nullable(),
});
export type LinkPreviewResponse = z.infer<typeof linkPreviewResponse>;

/** PUT .../link-preview-setting (workspace admins): previews on or off for the whole workspace. */
export const linkPreviewSettingBody = z.object({ linkPreviews: z.boolean() });
export const linkPreviewSettingResponse = z.object({ linkPreviews: z.boolean() });
export type LinkPreviewSetting = z.infer<typeof linkPreviewSettingResponse>;
