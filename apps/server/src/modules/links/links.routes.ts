import { conversionsApi, linksApi, publicLinksApi } from '@cabinet/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { requireActor } from '../../infra/http/actor.ts';
import { route } from '../../infra/http/route.ts';
import { attachment } from '../../lib/content-disposition.ts';
import type { LiveDocuments } from '../documents/index.ts';
import { createLink, getPolicy, listLinks, revokeLink, revokeWorkspaceLink, updateLink, updatePolicy, workspaceLinks } from './links.service.ts';
import { AppError } from '../../errors.ts';
import { sendThumbnail } from '../previews/index.ts';
import {
  abortLinkUpload,
  completeUploadThroughLink,
  createLinkFolder,
  LINK_COOKIE,
  linkUploadStatus,
  signLinkUploadParts,
  startLinkUpload,
  unlockLink,
  visitContent,
  visitContentUrl,
  visitDocument,
  visitExport,
  visitItem,
  visitLink,
  visitPreviewHtml,
  visitPreviewSheets,
  visitThumbnail,
  type Visit,
} from './visit.service.ts';

/**
 * Answers to a link's visitor are private to them (never kept by a shared cache) and the address,
 * which holds the token, is never sent on as a Referer.
 */
function visitorHeaders(reply: FastifyReply): void {
  reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
}

function visitOf(req: FastifyRequest<{ Params: { token: string } }>): Visit {
  const ua = req.headers['user-agent'];
  return { token: req.params.token, cookie: req.cookies[LINK_COOKIE], ip: req.ip, userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null };
}

export async function linksRoutes(app: FastifyInstance, ctx: AppContext, live: LiveDocuments) {
  const publicOrigin = new URL(ctx.env.PUBLIC_URL).origin;
  /**
   * A visitor's upload calls change things with no session, hence no CSRF token: a browser's call
   * from another site is refused (the link's cookie, SameSite=Strict, would not go with it anyway).
   */
  const uploading = (req: FastifyRequest, reply: FastifyReply) => {
    visitorHeaders(reply);
    const origin = req.headers.origin;
    if ((origin && origin !== publicOrigin) || (!origin && req.headers['sec-fetch-site'] === 'cross-site'))
      throw new AppError('forbidden', 'Cross-site requests are refused.');
  };

  route(app, linksApi.list, async (req) => listLinks(ctx, requireActor(req), req.params.id, req.query));
  route(app, linksApi.create, async (req) => createLink(ctx, requireActor(req), req.params.id, req.body));
  route(app, linksApi.update, async (req) => updateLink(ctx, requireActor(req), req.params.id, req.params.linkId, req.body));
  route(app, linksApi.revoke, async (req) => {
    await revokeLink(ctx.db, requireActor(req), req.params.id, req.params.linkId);
  });
  route(app, linksApi.revokeInWorkspace, async (req) => {
    await revokeWorkspaceLink(ctx.db, requireActor(req), req.params.ws, req.params.linkId);
  });
  route(app, linksApi.workspace, async (req) => workspaceLinks(ctx, requireActor(req), req.params.ws, req.query));
  route(app, linksApi.policy, async (req) => getPolicy(ctx.db, requireActor(req), req.params.ws));
  route(app, linksApi.updatePolicy, async (req) => updatePolicy(ctx.db, requireActor(req), req.params.ws, req.body));

  route(app, publicLinksApi.open, async (req, reply) => {
    visitorHeaders(reply);
    return visitLink(ctx, visitOf(req));
  });
  route(app, publicLinksApi.unlock, async (req, reply) => {
    visitorHeaders(reply);
    const cookie = await unlockLink(ctx, visitOf(req), req.body.password);
    reply.setCookie(LINK_COOKIE, cookie.value, { path: cookie.path, httpOnly: true, sameSite: 'strict', secure: ctx.env.secureCookies, maxAge: cookie.maxAge });
  });
  route(app, publicLinksApi.item, async (req, reply) => {
    visitorHeaders(reply);
    return visitItem(ctx, visitOf(req), req.params.itemId, req.query);
  });
  route(app, publicLinksApi.content, async (req, reply) => {
    visitorHeaders(reply);
    const content = await visitContent(ctx, visitOf(req), req.params.itemId, req.query.download === '1', live);
    if ('url' in content) return reply.redirect(content.url, 302);
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', content.length)
      .header('content-disposition', attachment(content.filename))
      .send(content.stream);
  });
  route(app, publicLinksApi.contentUrl, async (req, reply) => {
    visitorHeaders(reply);
    return visitContentUrl(ctx, visitOf(req), req.params.itemId);
  });
  route(app, publicLinksApi.thumbnail, async (req, reply) => {
    const thumbnail = await visitThumbnail(ctx, visitOf(req), req.params.itemId, req.query);
    // Private to the visitor, and the address (with its token) never sent on as a Referer.
    return sendThumbnail(reply.header('referrer-policy', 'no-referrer'), thumbnail);
  });
  route(app, publicLinksApi.document, async (req, reply) => {
    visitorHeaders(reply);
    return visitDocument(ctx, visitOf(req), req.params.itemId, live);
  });
  route(app, publicLinksApi.export, async (req, reply) => {
    visitorHeaders(reply);
    const file = await visitExport(ctx, visitOf(req), req.params.itemId, req.query.format, live);
    return reply.header('content-type', file.contentType).header('content-disposition', attachment(file.filename)).send(file.body);
  });
  route(app, conversionsApi.linkHtml, async (req, reply) => {
    visitorHeaders(reply);
    return visitPreviewHtml(ctx, visitOf(req), req.params.itemId);
  });
  route(app, conversionsApi.linkSheets, async (req, reply) => {
    visitorHeaders(reply);
    return visitPreviewSheets(ctx, visitOf(req), req.params.itemId, req.query);
  });

  route(app, publicLinksApi.createFolder, async (req, reply) => {
    uploading(req, reply);
    return createLinkFolder(ctx, visitOf(req), req.body);
  });
  route(app, publicLinksApi.startUpload, async (req, reply) => {
    uploading(req, reply);
    return startLinkUpload(ctx, visitOf(req), req.body);
  });
  route(app, publicLinksApi.upload, async (req, reply) => {
    visitorHeaders(reply);
    return linkUploadStatus(ctx, visitOf(req), req.params.uploadId);
  });
  route(app, publicLinksApi.signParts, async (req, reply) => {
    uploading(req, reply);
    return { parts: await signLinkUploadParts(ctx, visitOf(req), req.params.uploadId, req.body.partNumbers) };
  });
  route(app, publicLinksApi.completeUpload, async (req, reply) => {
    uploading(req, reply);
    return completeUploadThroughLink(ctx, visitOf(req), req.params.uploadId, req.body);
  });
  route(app, publicLinksApi.abortUpload, async (req, reply) => {
    uploading(req, reply);
    await abortLinkUpload(ctx, visitOf(req), req.params.uploadId);
  });
}
