import { z } from 'zod';

import { checkHttpUrl } from '../validation/files';
import { checked } from './checked';

export const WEBHOOK_URL_EXAMPLE = 'https://n8n.example.com/webhook/facilitapay';

export const WEBHOOK_LABELS: Record<string, string> = { url: 'URL' };

/** `POST /enable_webhooks` body: the address FacilitaPay will POST every notification to. */
export const enableWebhooksSchema = z.object({
	url: checked((raw) => checkHttpUrl(raw, WEBHOOK_URL_EXAMPLE)),
});
