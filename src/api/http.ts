import redaxios from 'redaxios';
import type { FieldError } from '../../contract/common';

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];
export type QueryParams = Record<string, QueryValue>;

/** Arrays become repeated keys (`status=A&status=B`), as the API expects (spec §7). */
export function serializeParams(params: QueryParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  return search.toString();
}

/** Drops what a user-search filter leaves behind when untouched: '', [] and NaN (spec §5). */
export function compactQuery<T extends QueryParams>(params: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [key, value] of Object.entries(params) as [keyof T, QueryValue][]) {
    if (value === '' || value === undefined || value === null) continue;
    if (Array.isArray(value) && value.length === 0) continue;
    if (typeof value === 'number' && Number.isNaN(value)) continue;
    out[key] = value as T[keyof T];
  }
  return out;
}

export type { FieldError } from '../../contract/common';

/** Every failed call surfaces as this: a status (0 = no response) and the server's code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    readonly errors: FieldError[] = [],
    readonly path = '',
    /** The refusal body's facts beside its code (a line, both numbers of a mismatch, …). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(code ?? `HTTP ${status}`);
    this.name = 'ApiError';
  }
}

export function toApiError(reason: unknown, path: string): ApiError {
  if (reason instanceof ApiError) return reason;
  if (typeof reason === 'object' && reason !== null && 'status' in reason) {
    const { status, data } = reason as { status: number; data?: unknown };
    const body = (typeof data === 'object' && data !== null ? data : {}) as {
      code?: unknown;
      errors?: unknown;
    };
    const code = typeof body.code === 'string' ? body.code : null;
    const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : [];
    const { code: _code, errors: _errors, message: _message, ...details } = body as Record<string, unknown>;
    return new ApiError(status, code, errors, path, details);
  }
  return new ApiError(0, null, [], path);
}

const baseURL = `${(import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '')}/v2`;
// No Authorization header: the session is the HttpOnly cookie the server set at sign-in, which the
// browser sends by itself (docs/decisions/0126).
const client = redaxios.create({ baseURL, paramsSerializer: serializeParams as (p: unknown) => string });

// Session calls settle their own 401s (wrong password, expired token on logout).
const SESSION_PATHS = new Set(['user/login', 'user/logout', 'user/me']);
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null): void {
  onUnauthorized = handler;
}

type Listener = (inFlight: number) => void;
let inFlight = 0;
const listeners = new Set<Listener>();
const setInFlight = (n: number) => {
  inFlight = n;
  for (const l of listeners) l(n);
};
export const inFlightRequests = {
  get: () => inFlight,
  subscribe(listener: Listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export interface RequestOptions {
  method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
  params?: QueryParams;
  data?: unknown;
  /** Extra headers: `Idempotency-Key` on money-moving POSTs, the content type of a raw upload. */
  headers?: Record<string, string>;
}

// GETs started before anyone asked for them, each waiting for the first identical request to take it.
const PREFETCH_TTL_MS = 10_000;
const prefetched = new Map<string, { response: Promise<unknown>; at: number }>();
const prefetchKey = (path: string, params: QueryParams | undefined) => {
  const search = new URLSearchParams(serializeParams(params ?? {}));
  search.sort();
  return `${path}?${search.toString()}`;
};

/**
 * Starts a GET now (a list's first page while the session is still being checked) and hands its
 * answer to the next identical `request()` — same path and parameters — within 10 s, instead
 * of asking twice. A failed prefetch is forgotten, so whoever asks next gets a fresh attempt; its
 * 401 goes to the unauthorized handler like any other call's.
 */
export function prefetchRequest(path: string, params?: QueryParams): void {
  const key = prefetchKey(path, params);
  if (prefetched.has(key)) return;
  const response = request(path, { params });
  prefetched.set(key, { response, at: Date.now() });
  response.catch(() => {
    if (prefetched.get(key)?.response === response) prefetched.delete(key);
  });
}

function takePrefetched(path: string, options: RequestOptions): Promise<unknown> | null {
  if (prefetched.size === 0 || (options.method ?? 'get') !== 'get') return null;
  const key = prefetchKey(path, options.params);
  const entry = prefetched.get(key);
  if (!entry) return null;
  prefetched.delete(key);
  return Date.now() - entry.at < PREFETCH_TTL_MS ? entry.response : null;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const ahead = takePrefetched(path, options);
  if (ahead) return ahead as Promise<T>;
  setInFlight(inFlight + 1);
  try {
    const response = await client<T>(path, {
      method: options.method ?? 'get',
      params: options.params,
      data: options.data,
      headers: options.headers,
    });
    return response.data;
  } catch (reason) {
    const error = toApiError(reason, path);
    if (error.status === 401 && !SESSION_PATHS.has(path)) onUnauthorized?.();
    throw error;
  } finally {
    setInFlight(inFlight - 1);
  }
}

// The server's file URLs are absolute paths (`/v2/admin/...`); a configured API host prefixes them.
const apiOrigin = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/+$/, '');

/**
 * Where `<audio>` and download links fetch their bytes. The browser sends the session cookie with
 * them (docs/decisions/0126), so its own range requests and downloads work.
 */
export const fileUrl = (path: string) => `${apiOrigin}${path}`;
