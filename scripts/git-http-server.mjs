// The test harness's git smart-HTTP server (scripts/test-env-git.sh): Debian's `git http-backend`
// run as a CGI behind basic auth, on loopback only. Argv: <port> <project root> <auth file "user:token">.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';

const [port, root, authFile] = process.argv.slice(2);
const expected = `Basic ${Buffer.from(fs.readFileSync(authFile, 'utf8').trim()).toString('base64')}`;

http
  .createServer((req, res) => {
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="berth-test-git"' }).end('authentication required\n');
      req.resume();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      REQUEST_METHOD: req.method ?? 'GET',
      PATH_INFO: decodeURIComponent(url.pathname),
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: authFile ? fs.readFileSync(authFile, 'utf8').split(':')[0] : '',
      REMOTE_ADDR: req.socket.remoteAddress ?? '',
      GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
      HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
    };
    const cgi = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let started = false;
    cgi.stdout.on('data', (chunk) => {
      if (started) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') + 4 : head.indexOf('\n\n') + 2;
      if (end < 2) return;
      let status = 200;
      for (const line of head.subarray(0, end).toString().split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === 'status') status = Number.parseInt(v, 10);
        else res.setHeader(k, v);
      }
      res.writeHead(status);
      started = true;
      res.write(head.subarray(end));
    });
    cgi.on('close', () => res.end());
  })
  .listen(Number(port), '127.0.0.1');
