import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../../bin/records.js', import.meta.url));

/**
 * `records serve --port 0` with `args`, resolved with its URL the moment it writes its ready
 * line on stderr (never after a wait), with what it wrote on stderr so far and since; rejected
 * with what it wrote if it exits first. The child joins `children`, for the test to kill what
 * is left.
 */
export function serveUntilReady(
  args: readonly string[],
  children: Set<ChildProcess>,
): Promise<{ url: string; child: ChildProcess; stderr: () => string }> {
  const env = { ...process.env };
  delete env.PORT;
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  children.add(child);
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const url = /^records: ready at (http:\/\/127\.0\.0\.1:\d+)\/$/m.exec(stderr)?.[1];
      if (url) resolve({ url, child, stderr: () => stderr });
    });
    child.on('exit', (code) => reject(new Error(`records serve exited (${code}) before it was ready: ${stderr}`)));
  });
}
