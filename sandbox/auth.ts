/**
 * Accounts, tokens and the per-account usage counters. Tokens look like JWTs (as the vendor's do) but
 * are only ever looked up, never decoded: clients must treat them as opaque.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const DEMO_USER_NAME = 'demo@sandbox.local';
export const DEMO_API_KEY = 'sandbox-demo-key';

export interface Account {
	userName: string;
	apiKey: string;
}

export interface TokenSettings {
	accounts: Account[];
	tokenLifetimeSeconds: number;
}

interface LiveToken {
	userName: string;
	expiresAt: number;
}

export interface IssuedToken {
	token: string;
	expires: string;
}

export class TokenIssuer {
	/** Every token ever issued, revoked or not: tests assert none of them leaks into output or logs. */
	readonly issued: string[] = [];
	private readonly live = new Map<string, LiveToken>();
	private readonly signingKey = randomBytes(32);

	constructor(
		private readonly settings: () => TokenSettings,
		private readonly now: () => number,
	) {}

	/** User names are e-mail addresses, so they match case-insensitively; keys match exactly. */
	findAccount(userName: unknown, apiKey: unknown): Account | undefined {
		if (typeof userName !== 'string' || typeof apiKey !== 'string') return undefined;
		return this.settings().accounts.find(
			(account) => account.userName.toLowerCase() === userName.toLowerCase() && account.apiKey === apiKey,
		);
	}

	issue(account: Account): IssuedToken {
		const issuedAt = this.now();
		const expiresAt = issuedAt + this.settings().tokenLifetimeSeconds * 1000;
		const token = this.sign({
			sub: account.userName,
			iat: Math.floor(issuedAt / 1000),
			exp: Math.floor(expiresAt / 1000),
			jti: randomBytes(12).toString('hex'),
		});
		this.live.set(token, { userName: account.userName, expiresAt });
		this.issued.push(token);
		return { token, expires: new Date(expiresAt).toISOString() };
	}

	/** The account's user name, or undefined for a missing, unknown, revoked or expired token. */
	verify(authorization: string | undefined): string | undefined {
		const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
		const live = token === undefined ? undefined : this.live.get(token);
		if (!live || live.expiresAt <= this.now()) return undefined;
		return live.userName;
	}

	revokeAll(): void {
		this.live.clear();
	}

	private sign(claims: Record<string, unknown>): string {
		const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
		const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
		return `${unsigned}.${createHmac('sha256', this.signingKey).update(unsigned).digest('base64url')}`;
	}
}

export interface Usage {
	apiUsage: number;
	apiDailyUsage: number;
}

/** The envelope's apiUsage (all calls) and apiDailyUsage (calls this UTC day), per account. */
export class UsageCounters {
	private readonly byAccount = new Map<string, { total: number; day: string; daily: number }>();

	constructor(private readonly now: () => number) {}

	count(userName: string): Usage {
		const today = new Date(this.now()).toISOString().slice(0, 10);
		const key = userName.toLowerCase();
		const counter = this.byAccount.get(key) ?? { total: 0, day: today, daily: 0 };
		if (counter.day !== today) Object.assign(counter, { day: today, daily: 0 });
		counter.total++;
		counter.daily++;
		this.byAccount.set(key, counter);
		return { apiUsage: counter.total, apiDailyUsage: counter.daily };
	}
}
