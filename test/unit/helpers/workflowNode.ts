import type { INode, INodeParameters } from 'n8n-workflow';

/** A node as a workflow holds it: its id, name and type, version 1, at the canvas origin. */
export const workflowNode = (
	id: string,
	name: string,
	type: string,
	parameters: INodeParameters = {},
): INode => ({ id, name, type, typeVersion: 1, position: [0, 0], parameters });
