/**
 * The two lookup tables of the users API. They start with the vendor's own example tables, verbatim
 * and in their order; the vendor's examples are excerpts (6 countries, 5 zones), so the rest of ISO
 * 3166-1 and of the IANA zones follows, named from the ICU data bundled with Node.
 */
import { exampleUserTexts, vendorCountries, vendorTimeZones } from './vendorExamples';

const ISO_3166_ALPHA2 = `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS
BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES
ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM
IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG
PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY
SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM
ZW`.split(/\s+/);

// Standard-time names: a date in January keeps "Greenwich Mean Time" from reading "British Summer Time".
const STANDARD_TIME_DATE = new Date(Date.UTC(2024, 0, 15));

let countryTable: Record<string, string> | undefined;
let timeZoneTable: Record<string, string> | undefined;

export function countries(): Record<string, string> {
	if (!countryTable) {
		const names = new Intl.DisplayNames(['en'], { type: 'region' });
		countryTable = { ...vendorCountries() };
		for (const code of ISO_3166_ALPHA2) countryTable[code] ??= names.of(code) ?? code;
	}
	return countryTable;
}

let acceptedCountries: Set<string> | undefined;

/**
 * A code or a name of the table, or a value a vendor user example holds (`"USA"`, which is neither:
 * the vendor stores and answers a country as it was sent).
 */
export function isCountry(value: string): boolean {
	acceptedCountries ??= new Set([...Object.keys(countries()), ...Object.values(countries()), ...exampleUserTexts('country')]);
	return acceptedCountries.has(value);
}

// Typed here because the package's TypeScript lib (es2021) predates Intl.supportedValuesOf.
const intl = Intl as unknown as { supportedValuesOf(key: 'timeZone'): string[] };

export function timeZoneIds(): string[] {
	return ['UTC', ...intl.supportedValuesOf('timeZone')];
}

/** Built on first use: describing all ~420 zones costs about 100 ms, too much for startup. */
export function timeZones(): Record<string, string> {
	if (!timeZoneTable) {
		timeZoneTable = { ...vendorTimeZones() };
		for (const id of timeZoneIds()) timeZoneTable[id] ??= describeTimeZone(id);
	}
	return timeZoneTable;
}

function describeTimeZone(id: string): string {
	const parts = new Intl.DateTimeFormat('en-US', { timeZone: id, timeZoneName: 'long' }).formatToParts(
		STANDARD_TIME_DATE,
	);
	return parts.find((part) => part.type === 'timeZoneName')?.value ?? id;
}

/** Any zone ICU knows, aliases included (`Asia/Kolkata` is listed as `Asia/Calcutta` by some ICU builds). */
export function isTimeZone(id: string): boolean {
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: id });
		return true;
	} catch {
		return false;
	}
}
