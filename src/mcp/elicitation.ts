// A server's elicitation/create: it asks the user for a few values (form mode) or to visit
// a URL (URL mode: a sign-in or payment page the server must not see through the client).
// arbor declares both; the answer comes from the handler the runtime installs (the
// operator, or headless policy), and without one every request is declined. A URL that is
// not http(s) is declined here: nothing else may reach a browser opener.
// Sampling and roots are not declared, so the SDK answers those with an error at once.

import type { ElicitFieldSpec, ElicitationReply } from '../model/controls.js';

export type ElicitField = ElicitFieldSpec;

export interface ElicitationRequest {
  server: string;
  /** The server's text, NOT neutralised (the view does that). */
  message: string;
  fields: ElicitField[];
  /** 'url': visit `url` (an http(s) URL, not neutralised); `fields` is empty. */
  mode: 'form' | 'url';
  url?: string;
  /** URL mode: the server's id for this request, named again by its completion notice. */
  elicitationId?: string;
  /** The runs with a tools/call in flight on this server when it asked. The client side of
   * the protocol does not see which request a server request relates to (relatedRequestId
   * only routes it on the server's side), so exactly one run means that run asked. */
  callers: string[];
}

export type ElicitationAnswer = ElicitationReply;

export type ElicitationHandler = (req: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

type RawProp = Record<string, unknown>;

/** The requested schema as a list of fields (unknown kinds are skipped). */
export function formFields(schema: { properties?: Record<string, RawProp>; required?: string[] } | undefined): ElicitField[] {
  const required = new Set(schema?.required ?? []);
  const out: ElicitField[] = [];
  for (const [key, p] of Object.entries(schema?.properties ?? {})) {
    const base = {
      key,
      title: typeof p.title === 'string' ? p.title : key,
      description: typeof p.description === 'string' ? p.description : '',
      required: required.has(key),
    };
    const def = p.default;
    if (p.type === 'string' && (Array.isArray(p.enum) || Array.isArray(p.oneOf))) {
      const names = Array.isArray(p.enumNames) ? (p.enumNames as unknown[]) : [];
      const options = Array.isArray(p.oneOf)
        ? (p.oneOf as RawProp[]).map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }))
        : (p.enum as unknown[]).map((v, i) => ({
            value: String(v),
            label: typeof names[i] === 'string' ? (names[i] as string) : String(v),
          }));
      out.push({ ...base, kind: 'enum', options, ...(typeof def === 'string' ? { default: def } : {}) });
    } else if (p.type === 'string') {
      out.push({ ...base, kind: 'string', ...(typeof def === 'string' ? { default: def } : {}) });
    } else if (p.type === 'number' || p.type === 'integer') {
      out.push({ ...base, kind: p.type, ...(typeof def === 'number' ? { default: def } : {}) });
    } else if (p.type === 'boolean') {
      out.push({ ...base, kind: 'boolean', ...(typeof def === 'boolean' ? { default: def } : {}) });
    }
  }
  return out;
}

/** `--yes` headless: accept with the defaults when every required field has one. */
export function acceptDefaults(fields: readonly ElicitField[]): ElicitationAnswer {
  const content: Record<string, string | number | boolean> = {};
  for (const f of fields) {
    if (f.default !== undefined) content[f.key] = f.default;
    else if (f.required) return { action: 'decline' };
  }
  return { action: 'accept', content };
}

/** One typed answer for a field: the value, or why it is not one. */
export function parseFieldInput(field: ElicitField, text: string): { value?: string | number | boolean; error?: string } {
  const raw = text.trim();
  if (raw === '') {
    if (field.default !== undefined) return { value: field.default };
    return field.required ? { error: 'required' } : {};
  }
  if (field.kind === 'string') return { value: text };
  if (field.kind === 'boolean') {
    if (/^(y|yes|true|1|s|si|sí)$/i.test(raw)) return { value: true };
    if (/^(n|no|false|0)$/i.test(raw)) return { value: false };
    return { error: 'boolean' };
  }
  if (field.kind === 'enum') {
    const n = Number(raw);
    const byIndex = Number.isInteger(n) && n >= 1 && n <= field.options.length ? field.options[n - 1] : undefined;
    const hit = byIndex ?? field.options.find((o) => o.value === raw || o.label === raw);
    return hit ? { value: hit.value } : { error: 'enum' };
  }
  const num = Number(raw);
  if (!Number.isFinite(num)) return { error: 'number' };
  if (field.kind === 'integer' && !Number.isInteger(num)) return { error: 'integer' };
  return { value: num };
}

/** A server said a URL-mode request's out-of-band step is finished. */
export type ElicitationCompleteHandler = (server: string, elicitationId: string) => void;

/** The URL a browser may be given: http(s) only (no file:, javascript:, custom schemes). */
export function openableUrl(text: string | undefined): string | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

type RawElicitParams = {
  mode?: string;
  message: string;
  requestedSchema?: Parameters<typeof formFields>[0];
  url?: string;
  elicitationId?: string;
};

/** Sets arbor's handlers for elicitation/create and its completion notice on a new SDK client. */
export async function installClientHandlers(
  client: import('@modelcontextprotocol/sdk/client/index.js').Client,
  server: string,
  handler: ElicitationHandler | undefined,
  callers: () => string[] = () => [],
  onComplete?: ElicitationCompleteHandler,
): Promise<void> {
  const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = await import('@modelcontextprotocol/sdk/types.js');
  client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
    const params = request.params as RawElicitParams;
    const mode = params.mode ?? 'form';
    if (!handler || (mode !== 'form' && mode !== 'url')) return { action: 'decline' };
    if (mode === 'url') {
      const url = openableUrl(params.url);
      if (!url) return { action: 'decline' };
      const answer = await handler(
        { server, message: params.message, fields: [], mode, url, elicitationId: params.elicitationId, callers: callers() },
        extra.signal,
      );
      // A URL request's accept carries no content: it means the operator went there.
      return answer.action === 'accept' ? { action: 'accept' } : answer;
    }
    return handler({ server, message: params.message, fields: formFields(params.requestedSchema), mode, callers: callers() }, extra.signal);
  });
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (note) => {
    onComplete?.(server, note.params.elicitationId);
  });
}
