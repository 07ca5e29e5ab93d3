/**
 * A throwaway self-signed certificate for HTTPS runs, made with the openssl CLI (Node has no API to
 * create certificates). Valid for localhost and 127.0.0.1 for one day.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface KeyAndCert {
	key: string;
	cert: string;
}

export function generateSelfSignedCert(commonName = 'localhost'): KeyAndCert {
	const dir = mkdtempSync(join(tmpdir(), 'sandbox-tls-'));
	try {
		const keyPath = join(dir, 'key.pem');
		const certPath = join(dir, 'cert.pem');
		execFileSync(
			'openssl',
			[
				'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
				'-keyout', keyPath, '-out', certPath, '-days', '1', '-subj', `/CN=${commonName}`,
				'-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
			],
			{ stdio: 'pipe' },
		);
		return { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8') };
	} catch (error) {
		throw new Error(`Could not create a self-signed certificate with openssl: ${error.message}`);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
