// The `requestState` of 2026-07-28 multi-round tool calls (MRTR, SEP-2322): what a server hands
// the client with an InputRequiredResult and gets back, byte for byte, on the retry (§D 113).
// It carries the answers of earlier rounds (the retry only carries the latest round's
// `inputResponses`), bound to the tool and its arguments, and is signed (HMAC-SHA-256 through
// WebCrypto) so that a forged or altered state is refused. Web APIs only (crypto.subtle,
// TextEncoder, btoa/atob): it runs in Node, Deno, browsers and edge runtimes alike.
//
// TypeScript, compiled by scripts/build-ts.mjs (tsc; the CommonJS twin by esbuild).

/**
 * What a `requestState` holds.
 */
export type MrtrState = {
  /** The tool the state was issued for. */
  tool: string;
  /** The SHA-256 (base64url) of the call's arguments (canonical JSON). */
  args: string;
  /** Every input response gathered so far, by key. */
  answers: Record<string, unknown>;
  /** The keys the InputRequiredResult asked for (the retry may answer only these). */
  asked: string[];
  /** When it was issued (Unix ms). */
  iat: number;
  /**
   * 96 random bits (base64url), set by `issue`: two states of equal content issued in the same
   * millisecond (two callers, one tool, the same arguments) are different states, each spent
   * by its own retry.
   */
  nonce?: string;
};

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/**
 * JSON with object keys sorted at every depth: the same value gives the same text whatever order
 * the client wrote its members in.
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const obj = (value as Record<string, unknown>);
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * A Web Crypto key (`CryptoKey`), declared by its members: the global `CryptoKey` exists only in
 * the DOM lib and in @types/node 25 and later, so naming it would break the published typings of
 * a Node project on older @types/node (without skipLibCheck). The DOM's and Node's keys fit it.
 */
export interface WebCryptoKey {
  readonly algorithm: { readonly name: string; };
  readonly extractable: boolean;
  readonly type: string;
  readonly usages: readonly string[];
}

/**
 * Signs and checks `requestState`s with one HMAC key.
 */
class MrtrStates {
  keySource: WebCryptoKey | Uint8Array<ArrayBuffer> | undefined;
  keyPromise: Promise<WebCryptoKey> | null;
  ttlMs: number;
  maxSpent: number;
  /** The MACs of the states already taken, with when they expire (oldest taken first). */
  spent: Map<string, number>;
  /**
   * @param [options]
   * @param [options.key] The HMAC-SHA-256 key (a CryptoKey for
   *   sign/verify, or its raw bytes, at least 32). Give every instance behind one load balancer
   *   the same key; default: a random key made at first use (states die with the process).
   * @param [options.ttlMs] How long a state stays acceptable (default 10 minutes).
   * @param [options.maxSpent] A state is accepted once: the states taken are remembered until
   *   they expire, at most this many (default 100,000); while that many unexpired ones are
   *   remembered, retries are refused (the server cannot tell a replay). Remembered in this
   *   instance only: behind a load balancer a replay sent to another replica within the TTL is
   *   accepted there once more (route a call's rounds to one replica, or keep `ttlMs` short).
   */
  constructor(options: { key?: WebCryptoKey | Uint8Array; ttlMs?: number; maxSpent?: number; } = {}) {
    const key = options.key;
    if (key instanceof Uint8Array && key.length < 32) throw new TypeError("the requestState key must have at least 32 bytes");
    this.keySource = key instanceof Uint8Array ? new Uint8Array(key) : key;
    this.keyPromise = null;
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    if (!Number.isFinite(this.ttlMs) || this.ttlMs <= 0) throw new TypeError("ttlMs must be a positive number of milliseconds");
    this.maxSpent = options.maxSpent ?? 100_000;
    if (!(Number.isSafeInteger(this.maxSpent) && this.maxSpent >= 0)) throw new TypeError("maxSpent must be a non-negative integer");
    this.spent = new Map();
  }

  key(): Promise<WebCryptoKey> {
    if (this.keyPromise === null) {
      const src = this.keySource;
      const algorithm = { name: "HMAC", hash: "SHA-256" };
      if (src === undefined) {
        this.keyPromise = (crypto.subtle.generateKey(algorithm, false, ["sign", "verify"]) as Promise<CryptoKey>);
      } else if (src instanceof Uint8Array) {
        this.keyPromise = crypto.subtle.importKey("raw", src, algorithm, false, ["sign", "verify"]);
      } else {
        this.keyPromise = Promise.resolve(src);
      }
    }
    return this.keyPromise;
  }

  /** The digest `args` is bound by. */
  async digest(args: unknown): Promise<string> {
    const bytes = new TextEncoder().encode(canonicalJson(args ?? {}));
    return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
  }

  /** A signed `requestState` for `state`. */
  async issue(state: MrtrState): Promise<string> {
    const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
    const body = base64url(new TextEncoder().encode(JSON.stringify({ ...state, nonce })));
    const mac = await crypto.subtle.sign("HMAC", (await this.key()) as CryptoKey, new TextEncoder().encode(body));
    return `${body}.${base64url(new Uint8Array(mac))}`;
  }

  /**
   * Reads back a `requestState` for a call of `tool` with `args` at `now`: the state, or a
   * sentence saying why it is refused (forged, altered, for another call, expired, already taken;
   * `data` when a bound refused it). A state is taken once: the first `open` that accepts it
   * spends it.
   */
  async open(token: unknown, tool: string, args: unknown, now: number): Promise<{ state: MrtrState; } | { refused: string; data?: Record<string, unknown>; }> {
    if (typeof token !== "string") return { refused: "requestState must be a string" };
    const [body, mac, extra] = token.split(".");
    const macBytes = fromBase64url(mac ?? "");
    const bodyBytes = fromBase64url(body ?? "");
    if (extra !== undefined || !body || !macBytes || !bodyBytes) return { refused: "requestState was not issued by this server" };
    const ok = await crypto.subtle.verify("HMAC", (await this.key()) as CryptoKey, macBytes, new TextEncoder().encode(body));
    if (!ok) return { refused: "requestState was not issued by this server" };
    let state: MrtrState;
    try {
      state = JSON.parse(new TextDecoder().decode(bodyBytes));
    } catch {
      return { refused: "requestState was not issued by this server" };
    }
    if (state.tool !== tool || state.args !== (await this.digest(args))) {
      return { refused: "requestState was issued for another call (tool or arguments differ)" };
    }
    if (!(now - state.iat <= this.ttlMs)) return { refused: "requestState has expired: start the call again" };
    // Checked and spent in one turn (no await in between): two racing retries cannot both pass.
    for (const [taken, expires] of this.spent) {
      if (expires >= now) break;
      this.spent.delete(taken);
    }
    if (this.spent.has(mac as string)) return { refused: "requestState was already used (a state answers one retry): start the call again" };
    if (this.spent.size >= this.maxSpent) {
      const limit = this.maxSpent;
      return { refused: `too many requestStates in use (limit ${limit}): try again later`, data: { limit, cap: "maxSpent" } };
    }
    this.spent.set(mac as string, state.iat + this.ttlMs);
    return { state };
  }
}

export { MrtrStates, canonicalJson };
