// REST routes for link previews (decision 0053): a member asks for the card of a page a message links to,
// and for its picture, which this server fetches through the address guard and serves itself (so the
// viewer's browser never contacts the linked site); admins switch previews off for the workspace.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  id,
  type LinkPreview,
  linkPreviewQuery,
  linkPreviewSettingBody,
} from '../../schemas/protocol/index.ts';
import { requireMember, requireWorkspaceAdmin } from '../access.ts';
import type { AppContext } from '../context.ts';
import { badRequest, forbidden, HttpError } from '../errors.ts';
import { linkPreviewsEnabled, setLinkPreviews } from '../link-previews/link-preview-setting.ts';
import { createLinkPreviews } from '../link-previews/link-previews.ts';
import { urlRefusal } from '../outbound/address-guard.ts';
import { getAuth } from './auth-hook.ts';

const workspaceParams = z.object({ id });

/** The address to preview, without its fragment; a 400 with a sentence when it cannot be one. */
function previewAddress(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('That is not a web address: give one starting with http:// or https://');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw badRequest('Only http and https addresses can be previewed');
  if (url.username || url.password)
    throw badRequest('Addresses with a user name or password are not previewed');
  const refusal = urlRefusal(url, allowPrivate);
  if (refusal) throw badRequest(refusal);
  url.hash = '';
  return url;
}

export function registerLinkPreviewRoutes(app: FastifyInstance, ctx: AppContext): void {
  const allowPrivate = ctx.config.LINK_PREVIEW_ALLOW_PRIVATE;
  const previews = createLinkPreviews({ allowPrivate });
  const base = '/api/institutions/:id/link-previews';

  /** Member of the workspace, previews on there, and an address that may be fetched. */
  async function checkRequest(request: { params: unknown; query: unknown }, userId: string) {
    const params = workspaceParams.parse(request.params);
    const query = linkPreviewQuery.parse(request.query);
    await requireMember(ctx.db, params.id, userId);
    if (!(await linkPreviewsEnabled(ctx.db, params.id)))
      throw forbidden('Link previews are switched off in this workspace');
    return { institutionId: params.id, url: previewAddress(query.url, allowPrivate) };
  }

  app.get(base, async (request) => {
    const { institutionId, url } = await checkRequest(request, getAuth(request).userId);
    const outcome = await previews.page(url);
    if (!outcome.ok) return { preview: null, reason: outcome.reason };
    const card = outcome.value;
    const preview: LinkPreview = {
      url: url.href,
      title: card.title,
      description: card.description,
      siteName: card.siteName,
      imageUrl: card.imageSource
        ? `/api/institutions/${institutionId}/link-previews/image?url=${encodeURIComponent(url.href)}`
        : null,
    };
    return { preview, reason: null };
  });

  // Only the picture a previewed page names is served: this is no general image proxy.
  app.get(`${base}/image`, async (request, reply) => {
    const { url } = await checkRequest(request, getAuth(request).userId);
    const page = await previews.page(url);
    if (!page.ok || !page.value.imageSource) throw new HttpError(404, 'This page has no picture to show');
    const image = await previews.image(page.value.imageSource);
    if (!image.ok) throw new HttpError(404, image.reason);
    return reply
      .headers({
        'content-type': image.value.contentType,
        'content-length': String(image.value.bytes.length),
        'x-content-type-options': 'nosniff',
        'content-disposition': 'inline; filename="preview"',
        'cache-control': 'private, max-age=3600',
        // Opened on its own, the picture can run nothing and load nothing.
        'content-security-policy': "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
      })
      .send(image.value.bytes);
  });

  app.put('/api/institutions/:id/link-preview-setting', async (request) => {
    const { userId } = getAuth(request);
    const params = workspaceParams.parse(request.params);
    const body = linkPreviewSettingBody.parse(request.body);
    await requireWorkspaceAdmin(ctx.db, params.id, userId);
    const linkPreviews = await setLinkPreviews(ctx.db, params.id, body.linkPreviews);
    // Every member's client reads the switch with the workspace list.
    ctx.broadcast.toInstitution(params.id, 'refresh', { value: 'institutions' });
    return { linkPreviews };
  });
}
