/**
 * Where our resume calls go: n8n's resume URL of the execution (`$execution.resumeUrl`:
 * `…/webhook-waiting/<id>`, with `?signature=<token>` on n8n 2.x) plus the path of the Wait for
 * Payment webhook, so that n8n routes a call only to a Wait for Payment that waits (n8n 1.x and
 * 2.x route `/webhook-waiting/<id>/<suffix>` to the waiting node's webhook of that path).
 */
export const RESUME_PATH = 'facilitapay-payment';

export function resumeCallUrl(resumeUrl: string): string {
	const url = new URL(resumeUrl);
	const path = url.pathname.replace(/\/+$/, '');
	if (!path.endsWith(`/${RESUME_PATH}`)) url.pathname = `${path}/${RESUME_PATH}`;
	return url.toString();
}
