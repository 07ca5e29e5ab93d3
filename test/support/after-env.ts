import { engineLoaded } from './engineInSuite';

// n8n-core 2.8 starts a 60 s cleanup interval for SSH clients that keeps jest from exiting. Only a
// suite that loaded the engine can have one: importing n8n-core here for every suite cost each of
// the others about a quarter second (`npm test`'s jest in band: 125 CPU-s with it, 95 without).
afterAll(async () => {
	if (!engineLoaded()) return;
	const { Container } = await import('@n8n/di');
	const { SSHClientsManager } = await import('n8n-core/dist/execution-engine/ssh-clients-manager');
	Container.get(SSHClientsManager).onShutdown();
});
