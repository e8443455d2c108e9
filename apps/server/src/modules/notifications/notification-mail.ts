import { describeNotification, type TNotification } from '@cabinet/contracts';
import type { AppContext } from '../../context.ts';
import { claimForMail, findNotificationsById, findPeopleToMail, findUser, unclaimForMail } from './notifications.repo.ts';
import { present } from './notifications.service.ts';

/** People mailed per pass; the rest wait for the next one (every minute). */
const PEOPLE_PER_PASS = 200;
/** Notifications listed in one mail; the mail says how many more wait in Cabinet. */
const LISTED = 20;

/** Where a notification opens, for a mail, as the bell's list opens it: the invitation, the document (at the thread), the folder, the file in the viewer. */
export function linkOf(publicUrl: string, n: TNotification): string {
  if (n.kind === 'invited' && n.invitationId) return `${publicUrl}/invitations/${n.invitationId}`;
  const base = `${publicUrl}/w/${encodeURIComponent(n.workspace.slug)}`;
  if (!n.item) return base;
  if (n.item.kind === 'document') return `${base}/d/${n.item.id}${n.threadId ? `?thread=${n.threadId}` : ''}`;
  if (n.item.kind === 'folder') return `${base}/f/${n.item.id}`;
  return `${base}/file/${n.item.id}`;
}

/**
 * Mails each person the notifications they left unread for `delayMinutes` and were never mailed:
 * one mail per person per pass, each notification in at most one mail (claimed before sending, put
 * back if the mail could not go, the others still mailed). Someone who turned mail off has theirs marked and never mailed.
 * Only items the person can still see are named (and invitations); with none left, no mail. Answers the mails sent.
 */
export async function mailUnreadNotifications(ctx: AppContext, delayMinutes: number): Promise<number> {
  const cutoff = new Date(Date.now() - delayMinutes * 60_000);
  let sent = 0;
  let failed: unknown;
  for (const userId of await findPeopleToMail(ctx.db, cutoff, PEOPLE_PER_PASS)) {
    const claimed = await claimForMail(ctx.db, userId, cutoff);
    const user = await findUser(ctx.db, userId);
    if (!claimed.length || !user || user.status !== 'active' || !user.notify_by_email) continue;
    // An invitation names no item: it opens the invitation itself.
    const shown = (await present(ctx.db, user, await findNotificationsById(ctx.db, claimed))).filter((n) => n.item || n.invitationId).reverse();
    if (!shown.length) continue;
    const listed = shown.slice(0, LISTED);
    const lines = listed.map((n) => `• ${describeNotification(n)} (${n.workspace.name})\n  ${linkOf(ctx.env.PUBLIC_URL, n)}`);
    const more = shown.length - listed.length;
    try {
      await ctx.mailer.send({
        to: user.email,
        subject: shown.length === 1 ? `${describeNotification(shown[0]!)} on Cabinet` : `You have ${shown.length} unread notifications on Cabinet`,
        text:
          `Hello ${user.name || user.email},\n\nWhile you were away:\n\n${lines.join('\n\n')}\n\n` +
          (more > 0 ? `…and ${more} more in Cabinet.\n\n` : '') +
          'Each is mailed once. ' +
          `To stop these emails, turn off “Send me mail about notifications I haven't read” in your account: ${ctx.env.PUBLIC_URL}/account\n`,
      });
      sent++;
    } catch (error) {
      await unclaimForMail(ctx.db, claimed);
      // One address the mail server refuses must not hold up everyone after it, pass after pass.
      failed ??= error;
    }
  }
  // Failing the pass keeps the error on the job for an operator; the others were mailed.
  if (failed !== undefined) throw failed;
  return sent;
}
