// The workflows that exercise every operation of the FacilitaPay action node, as five phases,
// shared by test/e2e/operations.test.mjs (n8n 2.x) and test/e2e/v1-smoke.test.mjs (n8n 1.x).
// Each phase is ONE workflow chaining many FacilitaPay nodes, with HTTP Request nodes calling the
// sandbox's control endpoints where a customer or the back office would act, then checks what
// the user sees (the nodes' outputs, a real binary for the boleto PDF) and what the sandbox
// received (method, path, body). Uses jest's global `expect`.
//
// One module per phase under phases/, this file names them:
//   shared.mjs          the seeded accounts, fixed inputs, ref(), one(), pages(), expectRunOk()
//   subjects.mjs        subjects, documents and transactions (14), its transactions in
//                       transactions.mjs (PIX, refund, boleto, payout, checkout)
//   wires.mjs           wire correction, marketplace account, webhooks, notifications (9)
//   subscriptions.mjs   subscriptions and invoices (7)
//   public-docs.mjs     company, registered bank account and balance, local pay-in (5)
//   service-part2.mjs   card payment, PSE, dynamic CLABE (3), a NIT company
export { ACCOUNTS, PDF_BASE64, expectRunOk, one, pages, ref } from './phases/shared.mjs';
export { subjectsAndTransactions } from './phases/subjects.mjs';
export { wiresMarketplaceWebhooks } from './phases/wires.mjs';
export { subscriptionsAndInvoices } from './phases/subscriptions.mjs';
export { publicDocsOperations } from './phases/public-docs.mjs';
export { servicePart2Operations } from './phases/service-part2.mjs';
