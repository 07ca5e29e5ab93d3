import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

// n8n-core 2.8 starts a 60 s cleanup interval for SSH clients that keeps jest from exiting.
afterAll(() => {
	Container.get(SSHClientsManager).onShutdown();
});
