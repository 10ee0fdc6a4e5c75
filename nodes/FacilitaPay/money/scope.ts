/**
 * This process's memory of one credential at one account: the credential's ID and the account it
 * reaches (transport's accountOf: base URL and who signs in). A credential edited from Sandbox to
 * Production is another account, so another memory; n8n's store is keyed by the account alone.
 */
export function memoryScope(credentialId: string, account: string): string {
	return `${credentialId}\u0001${account}`;
}
