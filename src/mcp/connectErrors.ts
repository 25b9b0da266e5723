// Why a url server could not be reached, in the words a user acts on: the HTTP status
// (401 means sign in, 404 names the URL, a 5xx carries the server's own message), a
// refused connection, a TLS failure. The SDK's errors hold these as a status `code` and
// a message wrapped in its own prefix; fetch's network failures hide the reason in
// `cause`. The text is neutralised where it is shown (the manager's views).

/** The shape both SDK HTTP errors share (StreamableHTTPError, SseError). */
interface HttpishError {
  code?: unknown;
  message?: string;
  cause?: unknown;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)|ERR_OSSL)/;

/** The network-level reason under a fetch failure, when there is one. */
function networkReason(err: unknown, url: URL): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const code = (cur as NodeJS.ErrnoException).code;
    if (typeof code === 'string') {
      if (code === 'ECONNREFUSED') return `connection refused at ${url.host}`;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `host not found: ${url.hostname}`;
      if (code === 'ECONNRESET') return `connection reset by ${url.host}`;
      if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `connection to ${url.host} timed out`;
      if (TLS_CODES.test(code)) return `TLS error: ${(cur as Error).message || code}`;
    }
    cur = (cur as HttpishError).cause;
  }
  return undefined;
}

/** The server's own words from a body the SDK quoted (a JSON-RPC error's message, or the
 * text itself). */
function serverMessage(message: string): string {
  const body = message
    .replace(/^(?:Streamable HTTP error: )?Error POSTing to endpoint(?: \(HTTP \d+\))?:\s*/, '')
    .replace(/^SSE error:\s*/, '')
    .replace(/^Non-200 status code \(\d+\)\s*/, '')
    .trim();
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'object' && typeof parsed.error?.message === 'string') return parsed.error.message;
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the text is the message.
  }
  return body;
}

export function httpStatusOf(err: unknown): number | undefined {
  const code = (err as HttpishError)?.code;
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  const m = /\(HTTP (\d{3})\)/.exec((err as Error)?.message ?? '');
  return m ? Number(m[1]) : undefined;
}

/** A connect failure as one line: `401 Unauthorized — needs sign-in`, `404 at <url>`,
 * `500: <message>`, `connection refused at host:port`, `TLS error: …`. */
export function describeConnectError(err: unknown, url: URL): string {
  const net = networkReason(err, url);
  if (net) return net;
  const status = httpStatusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (status === 401) return '401 Unauthorized — needs sign-in';
  if (status === 404) return `404 at ${url.href}`;
  if (status !== undefined) {
    const said = serverMessage(message);
    return said ? `${status}: ${said}` : String(status);
  }
  return message;
}

/** Whether trying the old HTTP+SSE transport after this Streamable HTTP failure makes
 * sense: not for a host that cannot be reached or a server that wants sign-in. */
export function worthSseFallback(err: unknown, url: URL): boolean {
  if (networkReason(err, url)) return false;
  const status = httpStatusOf(err);
  return status !== 401 && status !== 403;
}
