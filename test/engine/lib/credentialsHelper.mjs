// The credentials helper n8n-core calls during an execution (additionalData.credentialsHelper),
// for credentials given by the test instead of n8n's encrypted database. What it does is what n8n's
// server does with them (packages/cli CredentialsHelper), written here for a test:
// - getDecrypted: a fresh copy of the stored data with the credential type's defaults filled in
//   (n8n's NodeHelpers.getNodeParameters over the credential's properties);
// - preAuthentication: runs the credential's own preAuthentication when its expirable field is
//   empty or the server refused it (401), and stores the answer, as n8n persists it;
// - authenticate: the credential's own authenticate() applied to the request.
// Not reproduced: OAuth, the generic (declarative) authenticate, credential overwrites, external
// secrets and `allowedDomains`; this package uses none of them.
import { nodeRequire } from './nodeRequire.mjs';

const require = nodeRequire;
const { ICredentialsHelper, NodeHelpers } = require('n8n-workflow');
const { Credentials } = require('n8n-core');

export class TestCredentialsHelper extends ICredentialsHelper {
	/**
	 * @param {Record<string, { type: any }>} credentialTypes loaded types by name
	 * @param {Record<string, Record<string, unknown>>} stored decrypted data by credential type
	 */
	constructor(credentialTypes, stored) {
		super();
		this.credentialTypes = credentialTypes;
		this.stored = stored;
		/** How often n8n asked for a pre-authentication that ran (sign-ins). */
		this.preAuthentications = 0;
	}

	typeOf(name) {
		const entry = this.credentialTypes[name];
		if (!entry) throw new Error(`Unknown credential type "${name}"`);
		return entry.type;
	}

	getParentTypes(name) {
		return this.typeOf(name).extends ?? [];
	}

	getCredentialsProperties(type) {
		return this.typeOf(type).properties;
	}

	async authenticate(credentials, typeName, requestOptions) {
		const type = this.typeOf(typeName);
		if (typeof type.authenticate === 'function') {
			return await type.authenticate(credentials, requestOptions);
		}
		if (type.authenticate) {
			throw new Error('The test engine does not apply generic (declarative) authentication');
		}
		return requestOptions;
	}

	async preAuthentication(helpers, credentials, typeName, _node, credentialsExpired) {
		const type = this.typeOf(typeName);
		const expirable = type.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		this.preAuthentications++;
		const output = await type.preAuthentication.call(helpers, credentials);
		if (output?.[expirable.name] === undefined) return undefined;
		this.stored[typeName] = { ...this.stored[typeName], ...output };
		return Object.assign(credentials, output);
	}

	async runPreAuthentication(helpers, credentials, typeName) {
		const type = this.typeOf(typeName);
		if (typeof type.preAuthentication !== 'function') return undefined;
		return (await type.preAuthentication.call(helpers, credentials)) ?? undefined;
	}

	async getDecrypted(_additionalData, _nodeCredentials, type) {
		const data = structuredClone(this.stored[type] ?? {});
		const withDefaults = NodeHelpers.getNodeParameters(
			this.typeOf(type).properties,
			data,
			true,
			false,
			null,
			null,
		);
		return { ...data, ...withDefaults };
	}

	async getCredentials(nodeCredentials, type) {
		return new Credentials(nodeCredentials, type, '');
	}

	async updateCredentials(_nodeCredentials, type, data) {
		this.stored[type] = { ...data };
	}

	async updateCredentialsOauthTokenData(_nodeCredentials, type, data) {
		this.stored[type] = { ...data };
	}

	getOAuth2Options() {
		return undefined;
	}

	isCredentialUsableByNode() {
		return true;
	}
}
