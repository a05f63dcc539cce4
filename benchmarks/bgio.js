// boardgame.io 0.50.2 with latency.py's load shape (issue 15), for the ratio.
//
//   node benchmarks/bgio.js MATCHES ACTIONS CONCURRENCY
//
// Needs `npm install boardgame.io@0.50.2` in benchmarks/.node (git-ignored; see
// benchmarks/README.md). Starts a boardgame.io server (in-memory storage: it
// writes nothing durable) as a child process on 127.0.0.1, opens 5 clients per
// match (socket.io, as its browser clients do), then sends ACTIONS moves per match
// round-robin across matches, CONCURRENCY in flight and never two at once on one
// match. A move carries ~100 bytes; the state is ~200 bytes. Timed from the move
// being sent to the next seat's client seeing the new state (`other`), and to the
// last of the four others (`all`). Prints one JSON object: percentiles in ms,
// actions/s, the server's CPU ms per action (from /proc).
'use strict';
const path = require('path');
const fs = require('fs');
const { fork } = require('child_process');
const NODE = path.join(__dirname, '.node', 'node_modules');
const need = (name) => require(path.join(NODE, name));

const SEATS = 5;
const Game = {
  name: 'floor',
  setup: () => ({ taps: 0, last: '', pad: 'x'.repeat(120) }),
  turn: { activePlayers: { all: null } }, // every player may move at any time
  moves: {
    tap: ({ G }, body) => {
      G.taps += 1;
      G.last = String(body).slice(0, 80);
    },
  },
};

if (process.argv[2] === '--serve') {
  const { Server } = need('boardgame.io/server');
  const server = Server({ games: [Game], origins: [/.*/] });
  server.run({ port: Number(process.argv[3]) }, () => process.send && process.send('ready'));
  return;
}

function cpuSeconds(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ
}

function summary(values) {
  const s = [...values].sort((a, b) => a - b);
  const q = (p) => (s.length ? Math.round(s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] * 10) / 10 : null);
  return { n: s.length, p50: q(50), p95: q(95), p99: q(99), max: q(100) };
}

async function main() {
  const [matches, actions, concurrency] = process.argv.slice(2, 5).map(Number);
  const port = await new Promise((resolve) => {
    const probe = require('net').createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address();
      probe.close(() => resolve(free));
    });
  });
  const child = fork(__filename, ['--serve', String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  const { Client } = need('boardgame.io/client');
  const { SocketIO } = need('boardgame.io/multiplayer');
  const tables = [];
  try {
    for (let m = 0; m < matches; m++) {
      // The match is made on first contact (no lobby, no credentials: as open as
      // the server allows), for 5 players.
      const matchID = `m${m}-${Date.now()}`;
      const clients = [];
      for (let seat = 0; seat < SEATS; seat++) {
        const client = Client({
          numPlayers: SEATS,
          game: Game,
          matchID,
          playerID: String(seat),
          multiplayer: SocketIO({ server: `http://127.0.0.1:${port}` }),
          debug: false,
        });
        const watch = { client, top: -1, waiters: [] };
        client.subscribe((state) => {
          if (!state) return;
          const now = performance.now();
          if (state._stateID > watch.top) watch.top = state._stateID;
          watch.waiters = watch.waiters.filter((w) => {
            if (watch.top >= w.version) { w.resolve(now); return false; }
            return true;
          });
        });
        client.start();
        clients.push(watch);
      }
      tables.push({ clients, busy: false, free: Promise.resolve() });
    }
    const arrival = (watch, version) => new Promise((resolve) => {
      if (watch.top >= version) return resolve(performance.now());
      const w = { version, resolve };
      watch.waiters.push(w);
      setTimeout(() => resolve(null), 20000);
    });
    // Every client synced before any action.
    await Promise.all(tables.flatMap((t) => t.clients.map((c) => arrival(c, 0))));
    const plan = [];
    for (let n = 0; n < actions; n++) for (const t of tables) plan.push([n, t]);
    const other = [];
    const all = [];
    let lost = 0;
    const cpu0 = cpuSeconds(child.pid);
    const t0 = performance.now();
    async function worker() {
      while (plan.length) {
        const [n, table] = plan.shift();
        while (table.busy) await table.free; // never two actions at once on one match
        let release;
        table.busy = true;
        table.free = new Promise((resolve) => { release = resolve; });
        try {
        const actor = n % SEATS;
        const acting = table.clients[actor];
        const version = acting.top + 1;
        const sent = performance.now();
        acting.client.moves.tap(`key=${n}&type=adjust&player=p&field=red&delta=1&pad=${'y'.repeat(40)}`);
        const others = [1, 2, 3, 4].map((k) => table.clients[(actor + k) % SEATS]);
        const times = await Promise.all(others.map((c) => arrival(c, version)));
        await arrival(acting, version);
        if (times.includes(null)) { lost += 1; continue; }
        other.push(times[0] - sent);
        all.push(Math.max(...times) - sent);
        } finally {
          table.busy = false;
          release();
        }
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker));
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(child.pid) - cpu0;
    process.stdout.write(JSON.stringify({
      sessions: matches,
      sockets: matches * SEATS,
      actions: other.length,
      lost,
      actions_per_s: Math.round((other.length / wall) * 10) / 10,
      server_cpu_ms_per_action: other.length ? Math.round((cpu * 1000 / other.length) * 10) / 10 : null,
      other_seat_ms: summary(other),
      all_seats_ms: summary(all),
    }) + '\n');
  } finally {
    for (const t of tables) for (const c of t.clients) c.client.stop();
    child.kill();
  }
}

main().then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
