// The benchmark's floor: an HTTP server that answers every request with one prebuilt
// 20-record JSON page held in memory (the real server's bytes and headers), so each
// query class can be reported as a multiple of the cost of HTTP plus the payload alone.
// Plain JavaScript, so no loader sits between it and node:http.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [file, port] = process.argv.slice(2);
const page = JSON.parse(readFileSync(file, 'utf8'));
const body = Buffer.from(page.body, 'utf8');
const headers = { ...page.headers, 'Content-Length': String(body.length) };

const server = createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 5000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
