import { Agent, request } from 'node:http';

/**
 * One keep-alive connection, as a single browser tab or API client would use, asking for
 * `accept`; from `localAddress` (another loopback address, say) when given, so the server
 * counts it as a client of its own.
 */
export function singleClient(accept = 'application/json', localAddress?: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1, ...(localAddress && { localAddress }) });

  function get(
    url: string,
    timeoutMs = 60_000,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(url, { agent, headers: { accept } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: performance.now() - started }),
        );
        res.on('error', reject);
      });
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs} ms: ${url}`)));
      req.on('error', reject);
      req.end();
    });
  }

  return { get, close: () => agent.destroy() };
}

export type SingleClient = ReturnType<typeof singleClient>;
