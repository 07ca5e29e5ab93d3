// Preloaded (NODE_OPTIONS=--require) into `n8n start` by scripts/n8n/editor.ts when the n8n install
// has no list yet of the files its start reads (SATELLITE_BOOT_FILES). At exit it writes one, which
// scripts/e2e/prewarm.sh reads into the page cache while .ci/run installs and builds: on a machine
// whose disk cache is cold, three n8n starting at once read some 10,000 files from the disk.
const fs = require('node:fs');
const path = require('node:path');

const list = process.env.SATELLITE_BOOT_FILES;
// Only n8n itself records, not the task runners it starts.
delete process.env.SATELLITE_BOOT_FILES;
process.on('exit', (code) => {
	// A start that failed loaded only part of n8n: the next start records instead.
	if (code !== 0 || !list || fs.existsSync(list)) return;
	// The install's own modules (the list is written into it), not the lane's temporary ones.
	const install = `${path.dirname(list)}${path.sep}`;
	const files = [process.execPath, ...Object.keys(require.cache).filter((file) => file.startsWith(install))];
	const temp = `${list}.${process.pid}`;
	try {
		fs.writeFileSync(temp, `${files.join('\n')}\n`);
		// Whole or not at all: several n8n of one install may exit at once.
		fs.renameSync(temp, list);
	} catch {
		fs.rmSync(temp, { force: true });
	}
});
