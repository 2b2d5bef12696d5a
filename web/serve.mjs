// A static file server for the built playground (scripts/web --serve): node web/serve.mjs DIR [PORT].
// Serves DIR's files with the MIME types a browser needs for ES modules and WebAssembly.
import http from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(process.argv[2] ?? '.');
const port = Number(process.argv[3] ?? 8000);
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.png': 'image/png', '.json': 'application/json',
};

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url, 'http://localhost');
  const file = path.join(root, path.normalize(decodeURIComponent(url.pathname)).replace(/^([/\\])+/, ''));
  const target = url.pathname.endsWith('/') ? path.join(file, 'index.html') : file;
  if (!target.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await fs.readFile(target);
    res.writeHead(200, { 'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  }
});
server.listen(port, '127.0.0.1', () => console.log(`boids playground: http://127.0.0.1:${port}/`));
