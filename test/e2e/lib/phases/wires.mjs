// The wires phase: a refused wire's bank account corrected, a marketplace account authorised and
// requested, webhooks switched on and off, and a failed notification marked as successful (9
// operations), one workflow. Needs `ctx.subjectId` and `ctx.wirePixId` from the first phase. Uses
// jest's global `expect`.
import { actionStep, httpStep, sandboxApi, sandboxControl, validCpf } from '../n8n-e2e.mjs';
import { controlUrl, expectRunOk, one, pages, ref } from './shared.mjs';

/* global expect */

/**
 * Wire correction, marketplace account, webhooks and notifications (9 operations).
 * @param {import('./shared.mjs').PhaseOptions} options
 */
export async function wiresMarketplaceWebhooks({ sb, runPhase, ctx, covered }) {
	expect(ctx.subjectId).toBeDefined();
	// The back office runs the exchange/wire step; the bank refuses the wire (AC03).
	await sandboxControl('POST', '/settlement/run', { wire_error_code: 'AC03' }, sb.state);
	const tx = await sandboxApi('GET', `/transactions/${ctx.wirePixId}`, undefined, sb.state);
	const wireId = tx.json.data.wire_id;
	expect(wireId).toEqual(expect.any(String));
	const ownerCpf = validCpf((Date.now() % 100000) + 9100);
	const badUrl = `${sb.sandboxUrl}/nowhere/facilitapay-e2e`;

	const { run, log, out } = await runPhase([
		wireStep(wireId, ownerCpf),
		...marketplaceSteps(sb, ctx.subjectId),
		...webhookSteps(sb, ctx.subjectId, badUrl),
	]);
	expectRunOk(run);
	const phase = { sb, run, log, out, ctx, covered };

	checkWire(phase, wireId, ownerCpf);
	checkMarketplace(phase);
	await checkWebhooks(phase, badUrl);
}

/** @param {string} wireId @param {string} ownerCpf */
function wireStep(wireId, ownerCpf) {
	return actionStep('Update Wire Bank Account', {
		resource: 'wire',
		operation: 'updateBankAccount',
		wireId,
		currency: 'USD',
		bankCode: '001',
		bankName: 'Banco do Brasil',
		branchNumber: '0001',
		accountNumber: '12345-6',
		accountType: 'conta-corrente',
		ownerDocumentNumber: ownerCpf,
		ownerName: 'Maria Souza',
		branchCountry: 'BR',
	});
}

/**
 * Authorisation (the back office approves), bank account request (the bank completes it), Get.
 * @param {{sandboxUrl: string}} sb
 * @param {string} subjectId
 */
function marketplaceSteps(sb, subjectId) {
	return [
		actionStep('Request Authorization', {
			resource: 'marketplaceAccount',
			operation: 'requestAuthorization',
			subjectId,
			options: { isSubjectAccountOwner: true },
		}),
		httpStep('Back Office Approves', {
			url: controlUrl(sb, `/authorizations/${subjectId}/approve`),
		}),
		actionStep('Request Bank Account', {
			resource: 'marketplaceAccount',
			operation: 'requestBankAccount',
			subjectId,
			options: { isSubjectAccountOwner: true },
		}),
		httpStep('Bank Completes Request', {
			url: controlUrl(
				sb,
				`/bank_account_requests/{{ $('Request Bank Account').first().json.id }}/complete`,
			),
		}),
		actionStep('Get Bank Account Request', {
			resource: 'marketplaceAccount',
			operation: 'getBankAccountRequest',
			requestId: ref('Request Bank Account'),
		}),
	];
}

/**
 * A webhook to a URL that fails, an event, the failed notifications, one marked as successful,
 * then the webhook disabled.
 * @param {{sandboxUrl: string}} sb
 * @param {string} subjectId
 * @param {string} badUrl
 */
function webhookSteps(sb, subjectId, badUrl) {
	return [
		actionStep('Enable Webhook', { resource: 'webhook', operation: 'enable', url: badUrl }),
		httpStep('Event Happens', {
			url: controlUrl(sb, '/events'),
			body: { type: 'subject_approved', subject_id: subjectId },
		}),
		actionStep('Failed Notifications', {
			resource: 'notification',
			operation: 'getMany',
			returnAll: true,
			options: { failed: 'onlyFailed' },
		}),
		actionStep(
			'Mark as Successful',
			{
				resource: 'notification',
				operation: 'markAsSuccessful',
				notificationId: ref('Failed Notifications'),
			},
			{ executeOnce: true },
		),
		actionStep(
			'Disable Webhook',
			{ resource: 'webhook', operation: 'disable' },
			{ executeOnce: true },
		),
	];
}

/**
 * Wire: the corrected account went to the service, the wire waits for confirmation.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string} wireId
 * @param {string} ownerCpf
 */
function checkWire({ log, out, covered }, wireId, ownerCpf) {
	expect(out('Update Wire Bank Account')).toEqual([
		expect.objectContaining({ id: wireId, status: 'waiting_confirmation' }),
	]);
	expect(one(log, 'PUT', new RegExp(`/api/v1/wires/${wireId}/update_bank_account$`)).body).toEqual({
		bank_account: {
			currency: 'USD',
			bank: { code: '001', name: 'Banco do Brasil' },
			branch_number: '0001',
			account_number: '12345-6',
			owner_document_number: ownerCpf,
			owner_name: 'Maria Souza',
			branch_country: 'BR',
			account_type: 'conta-corrente',
		},
	});
	covered.add('wire.updateBankAccount');
}

/**
 * Marketplace account: authorisation, bank account request, its completed state.
 * @param {import('./shared.mjs').PhaseRun} phase
 */
function checkMarketplace({ log, out, ctx, covered }) {
	expect(out('Request Authorization')).toEqual([
		expect.objectContaining({
			subject_id: ctx.subjectId,
			status: 'pending',
			is_subject_account_owner: true,
		}),
	]);
	expect(
		one(log, 'POST', new RegExp(`/api/v1/subject/${ctx.subjectId}/account_request$`)).body,
	).toEqual({ is_subject_account_owner: true });
	covered.add('marketplaceAccount.requestAuthorization');
	const [request] = out('Request Bank Account');
	expect(request).toMatchObject({ subject_id: ctx.subjectId, status: 'processing' });
	expect(one(log, 'POST', /\/api\/v1\/bank\/accounts\/request$/).body).toEqual({
		subject_id: ctx.subjectId,
		is_subject_account_owner: 'true',
	});
	covered.add('marketplaceAccount.requestBankAccount');
	expect(out('Get Bank Account Request')).toEqual([
		expect.objectContaining({
			id: request.id,
			status: 'complete',
			bank_account: expect.objectContaining({ currency: 'BRL' }),
		}),
	]);
	one(log, 'GET', new RegExp(`/api/v1/bank/accounts/request/${request.id}$`));
	covered.add('marketplaceAccount.getBankAccountRequest');
}

/**
 * Webhooks and notifications.
 * @param {import('./shared.mjs').PhaseRun} phase
 * @param {string} badUrl
 */
async function checkWebhooks({ sb, log, out, ctx, covered }, badUrl) {
	expect(out('Enable Webhook')).toEqual([expect.objectContaining({ secret: expect.anything() })]);
	expect(one(log, 'POST', /\/api\/v1\/enable_webhooks$/).body).toEqual({ url: badUrl });
	covered.add('webhook.enable');
	const failed = out('Failed Notifications');
	expect(failed.length).toBeGreaterThanOrEqual(1);
	expect(failed[0]).toMatchObject({ id: expect.any(String), failed_at: expect.any(String) });
	expect(JSON.stringify(failed[0])).toContain(ctx.subjectId);
	const [list] = pages(log, 'GET', /\/api\/v1\/notifications$/);
	expect(list.query).toMatchObject({ failed: 'true' });
	covered.add('notification.getMany');
	expect(out('Mark as Successful')).toHaveLength(1);
	one(log, 'PUT', new RegExp(`/api/v1/notifications/${failed[0].id}$`));
	const stillFailed = await sandboxApi('GET', '/notifications?failed=true', undefined, sb.state);
	expect(stillFailed.json.data.map((n) => n.id)).not.toContain(failed[0].id);
	covered.add('notification.markAsSuccessful');
	expect(out('Disable Webhook')).toHaveLength(1);
	one(log, 'GET', /\/api\/v1\/disable_webhooks$/);
	expect((await sandboxControl('GET', '/webhook', undefined, sb.state)).data.enabled).toBe(false);
	covered.add('webhook.disable');
}
