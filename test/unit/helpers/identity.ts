/**
 * What the node adds to the meta of a transaction or subscription it creates: the payment's
 * identity (money/rule.ts), here from a run of its own (no Idempotency Key).
 */
export const IDENTITY = { n8n_facilitapay_ref: expect.stringMatching(/^run:/) as unknown };
