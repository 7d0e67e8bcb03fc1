/**
 * Private mirrors (a server started with an access token) want `Authorization: Bearer
 * <token>` on every API request. The token is configured per deployment and belongs to the
 * origin of that deployment's base URL: a request anywhere else (a Link header or a record
 * pointing at another host) goes without it, so a server cannot collect another's token.
 */

export interface ApiAuth {
  readonly token: string;
  /** The only origin the token is sent to (`https://mirror.example:8443`). */
  readonly origin: string;
}

/** The Authorization header for a request to `url`, or no header. */
export function authorizationHeader(url: string, auth: ApiAuth | undefined): Record<string, string> {
  if (!auth) return {};
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return {};
  }
  return origin === auth.origin ? { Authorization: `Bearer ${auth.token}` } : {};
}
