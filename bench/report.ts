/** The bench's output: one row per figure, printed as a table and saved as JSON. */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';

import type { HelperLoopRun } from './helperLoop';

export type Verdict = 'met' | 'MISSED' | 'info' | 'skipped';

export interface Figure {
	/** Short id, e.g. `P2.itemsPerSecond`. */
	id: string;
	/** What it is, as printed. */
	figure: string;
	/** The measured value (null when not measured). */
	value: number | null;
	/** Unit printed after the value. */
	unit: string;
	/** This figure over the same figure of the raw client (ceiling), when there is one. */
	vsCeiling?: number;
	/** This figure over the same figure of n8n's HTTP Request node (DIY), when there is one. */
	vsDiy?: number;
	/** The issue's target, as text. */
	target?: string;
	verdict: Verdict;
	/** Why it was skipped, what it was measured against, anything a reader needs. */
	note?: string;
	/** The n8n-core version the nodes ran in, for figures the engine produced. */
	core?: string;
}

export interface BenchReport {
	startedAt: string;
	finishedAt: string;
	wallSeconds: number;
	mode: 'full' | 'smoke';
	/** `core`: the n8n-core version this process ran the nodes in. */
	machine: { cpus: number; cpuModel: string; node: string; loadAverageAtStart: number[]; core?: string };
	sizes: Record<string, unknown>;
	figures: Figure[];
	/** Everything measured, per scenario, including what the table leaves out. */
	details: Record<string, unknown>;
}

export function machine(): BenchReport['machine'] {
	const list = cpus();
	return { cpus: list.length, cpuModel: list[0]?.model ?? 'unknown', node: process.version, loadAverageAtStart: loadavg() };
}

export function verdict(met: boolean): Verdict {
	return met ? 'met' : 'MISSED';
}

/** The package's share of the time: node speed over the speed of n8n's bare helper loop doing the same calls. */
export const HELPER_LOOP_TARGET = 0.9;

/**
 * A scenario's two helper-loop rows: the loop itself (against the raw ceiling: n8n's cost), and the
 * node's speed over the loop's (the package's share), with its target.
 */
export function helperLoopFigures(
	scenario: string,
	loop: { figure: string; value: number; unit: string; vsCeiling: number; runs: HelperLoopRun[]; calls: number; note: string },
	node: { figure: string; speedRatio: number; perRound: number[]; note: string },
	/** Absent: judged. P3 is judged on today's n8n-core only (issue 50); elsewhere its spread is reported. */
	notJudgedOn?: string,
): Figure[] {
	const spread = `per round ${Math.min(...node.perRound).toFixed(2)}–${Math.max(...node.perRound).toFixed(2)}× over ${node.perRound.length}`;
	const incomplete = loop.runs.find((run) => run.ok !== loop.calls);
	return [
		{
			id: `${scenario}.helperLoop`,
			figure: loop.figure,
			value: loop.value,
			unit: loop.unit,
			vsCeiling: loop.vsCeiling,
			verdict: incomplete ? 'MISSED' : 'info',
			note: incomplete ? `incomplete: ${incomplete.ok}/${loop.calls} (${incomplete.error ?? 'non-2xx answers'})` : loop.note,
		},
		{
			id: `${scenario}.vsHelperLoop`,
			figure: node.figure,
			value: node.speedRatio,
			unit: '×',
			target: notJudgedOn === undefined ? `≥ ${HELPER_LOOP_TARGET}×` : `≥ ${HELPER_LOOP_TARGET}×, judged on ${notJudgedOn}`,
			verdict: incomplete ? 'MISSED' : notJudgedOn === undefined ? verdict(node.speedRatio >= HELPER_LOOP_TARGET) : 'info',
			note: `${node.note}; ${spread}`,
		},
	];
}

function formatNumber(value: number): string {
	if (!Number.isFinite(value)) return String(value);
	if (Number.isInteger(value)) return value.toLocaleString('en-US');
	const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
	return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const ratio = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '' : `${value.toFixed(2)}×`);

export function renderTable(figures: Figure[]): string {
	const rows = figures.map((figure) => [
		figure.core ?? '',
		figure.figure,
		figure.value === null ? '—' : `${formatNumber(figure.value)}${figure.unit ? ` ${figure.unit}` : ''}`,
		ratio(figure.vsCeiling),
		ratio(figure.vsDiy),
		figure.target ?? '',
		figure.verdict === 'info' ? '' : figure.verdict,
	]);
	const header = ['n8n-core', 'figure', 'value', 'vs ceiling', 'vs DIY', 'target', 'verdict'];
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
	const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

export function renderNotes(figures: Figure[]): string {
	return figures
		.filter((figure) => figure.note)
		.map((figure) => `- ${figure.figure}${figure.core ? ` (n8n-core ${figure.core})` : ''}: ${figure.note}`)
		.join('\n');
}

export function saveReport(path: string, report: BenchReport): void {
	writeFileSync(path, `${JSON.stringify(report, null, 2)}\n`);
}
