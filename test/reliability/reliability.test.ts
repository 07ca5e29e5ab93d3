/**
 * The reliability and security suite (issue 7). Reduced in `npm test`; `npm run test:reliability`
 * sets RELIABILITY_SIZE=full for the figures docs/reliability.md quotes. One file, so that the secrets
 * check (R3) covers what every area produced.
 */
import { describeBadInput } from './badInput';
import { describeFaults } from './faults';
import { describeMalformed } from './malformed';
import { describeTls } from './tls';
import { describeTrigger } from './trigger';
import { secretWatch, summary } from './support';

secretWatch.captureLogs();

describeFaults();
describeBadInput();
describeMalformed();
describeTrigger();
describeTls();

describe('R3 secrets: the API key and every issued token appear nowhere', () => {
	it('in any output item, error, run data or log line of the whole suite', () => {
		const logLines = secretWatch.scanLogs();
		summary(
			`R3 secrets: texts=${secretWatch.texts} bytes=${secretWatch.bytes} output-items=${secretWatch.outputItems} ` +
				`errors=${secretWatch.errors} log-lines=${logLines} secrets=${secretWatch.secrets().length} leaks=${secretWatch.leaks.length}`,
		);
		expect(secretWatch.leaks).toEqual([]);
	});
});
