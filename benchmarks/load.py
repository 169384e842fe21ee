"""The web server under attack: what normal players wait for while an attacker sends the heaviest
requests the server allows, and how much memory the server takes meanwhile.

Starts ``hashikit serve`` (from a source tree or a git revision: ``PYTHONPATH``) on a free port of
127.0.0.1, then runs phases of ``--seconds`` each.  In every phase ``--players`` normal players,
each from an address of its own, solve 15x15 puzzles (45 islands, the paper's generator) one after
another with a short pause, every answer checked by the rule checker; meanwhile, from addresses of
its own, the attacker sends

- ``pictures``: near-cap pictures (a blank lossless WebP just under the server's pixel cap, read
  from ``/api/limits``: a few hundred bytes that decode to tens of megapixels), 8 at once;
- ``hard-solves``: hard 60x60 solves (1,000 islands, MAXBRIDGES 8: no engine answers in 10 s), 8 at once;
- ``parses``: max-size parses (a 60x60 puzzle padded to the body cap), 8 at once;
- ``flood``: 400 small solves at once, every 5 s;
- ``slowloris``: connections that send their headers, or their body, one byte a second;
- ``all``: every attack at once, each from its own address;

(``quiet``: no attack, the baseline).  The attacker does not honour Retry-After, but pauses 0.1 s
after a refusal so that its own loop does not take the CPUs the server needs.  Per phase: the
players' p50, p99 and worst latency and their answers, the attacker's answers by status (and how
many 429/503 carried Retry-After), how long slow connections were held, and the server's peak
memory (resident, and proportional: shared pages counted once, summed over the server's processes).

    python benchmarks/load.py [--seconds 20] [--players 4] [--out benchmarks/results/load.md]
    python benchmarks/load.py --side-by-side main=main now=. --seconds 15    # revisions or trees
    python benchmarks/load.py --quick --json out.json                        # the test suite's run

Every client binds an address of its own in 127.0.0.0/8: only this machine is ever contacted.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import io
import json
import os
import platform
import random
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _runinfo import extract_package, git_state  # noqa: E402

PHASES = ("quiet", "pictures", "hard-solves", "parses", "flood", "slowloris", "all")
ATTACKS = ("pictures", "hard-solves", "parses", "flood", "slowloris")
#: each simulated client's own address (players: PLAYER + i; the attacks: ATTACKER + k)
PLAYER, ATTACKER = 10, 60
#: what the attacker sends at once
AT_ONCE, FLOOD, FLOOD_EVERY, SLOW_CONNECTIONS, DRIP = 8, 400, 5.0, 40, 1.0
#: seconds past its timeout a slow connection may stay open before it counts as held too long (the
#: attacker notices a close within one drip)
SLACK = 2 * DRIP
#: a player's pause between two solves, seconds
THINK = 0.25
#: the most a player's request may take before the client gives up (counted as an error)
PLAYER_TIMEOUT = 60.0


# -- the server -------------------------------------------------------------------------------
def tree_pids(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{task}/children").read_text().split()]
        except OSError:
            pass
    return out


def memory(pid: int) -> tuple[int, int]:
    """Resident and proportional memory (bytes) of process ``pid`` and every process under it."""
    rss = pss = 0
    for p in tree_pids(pid):
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Rss:"):
                    rss += int(line.split()[1]) * 1024
                elif line.startswith("Pss:"):
                    pss += int(line.split()[1]) * 1024
        except OSError:
            pass
    return rss, pss


def cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user and system) of process ``pid`` itself, and of the processes under it (the
    live ones, and those reaped already)."""
    tick = os.sysconf("SC_CLK_TCK")

    def stat(p: int) -> list[int]:
        try:
            return [int(v) for v in Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()[11:15]]
        except (OSError, ValueError):
            return [0, 0, 0, 0]

    own = stat(pid)
    below = own[2] + own[3] + sum(sum(stat(p)) for p in tree_pids(pid)[1:])
    return (own[0] + own[1]) / tick, below / tick


class Server:
    """``hashikit serve --port 0`` from ``tree`` (a folder to put on PYTHONPATH; None: the installed
    package); ``settings`` (a dict of admission fields) serves the same app through a script instead,
    for a tree that has them (the test suite's short timeouts)."""

    def __init__(self, tree: str | None = None, settings: dict | None = None):
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if tree is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(tree).resolve()), env.get("PYTHONPATH")]))
        if settings:
            cmd = [sys.executable, "-c", SERVE_WITH, json.dumps(settings)]
        else:
            cmd = [sys.executable, "-m", "hashikit", "serve", "--port", "0"]
        self.proc = subprocess.Popen(cmd, env=env, stderr=subprocess.PIPE, text=True,
                                     cwd=tempfile.gettempdir(), start_new_session=True)
        self.tree = tree

    def wait(self) -> "Server":
        """Wait until it serves (its port printed, its limits read)."""
        if hasattr(self, "limits"):
            return self
        tree = self.tree
        line = ""
        end = time.monotonic() + 120
        while time.monotonic() < end:
            line = self.proc.stderr.readline()
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
            if found:
                self.port = int(found.group(1))
                break
            if not line and self.proc.poll() is not None:
                break
        else:
            line = ""
        if not line:
            self.stop()
            raise RuntimeError(f"the server (tree {tree or 'installed'}) did not start")
        self.base = f"http://127.0.0.1:{self.port}"
        self.limits = httpx.get(f"{self.base}/api/limits", timeout=30).json()
        return self

    def memory(self) -> tuple[int, int]:
        return memory(self.proc.pid)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds of the server's own process, and of its workers."""
        return cpu(self.proc.pid)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


#: the app as ``hashikit serve`` runs it, with admission fields changed (and "trusted", the trusted
#: proxies, and "time_limit", a solve's): for the tests' short timeouts
SERVE_WITH = """
import json, sys
import uvicorn
from hashikit.limits import WEB_ADMISSION
from hashikit.web.admission import proxies
from hashikit.web.app import create_app
from hashikit.web.cli import bind
from hashikit.web.serving import config
asked = json.loads(sys.argv[1])
trusted, seconds = proxies(asked.pop("trusted", [])), asked.pop("time_limit", 10.0)
settings = WEB_ADMISSION.__class__(**{**{k: getattr(WEB_ADMISSION, k) for k in WEB_ADMISSION._fields}, **asked})
sock = bind("127.0.0.1", 0)
print(f"hashikit: playing at http://127.0.0.1:{sock.getsockname()[1]}/", file=sys.stderr, flush=True)
app = create_app(admission=settings, trusted_proxies=trusted, solve_time_limit=seconds)
uvicorn.Server(config(app, settings, trusted)).run(sockets=[sock])
"""


# -- what is sent ------------------------------------------------------------------------------
def small_puzzles(n: int = 12) -> list[dict]:
    from hashikit.formats.jsonfmt import puzzle_data
    from hashikit.generate import coelho

    return [puzzle_data(coelho(45, 15, 15, 50, 5, seed)) for seed in range(n)]


def hard_puzzles(n: int) -> list[dict]:
    from hashikit.formats.jsonfmt import puzzle_data
    from hashikit.generate import coelho

    return [puzzle_data(coelho(1000, 60, 60, 25, 0, seed, maxbridges=8)) for seed in range(n)]


def near_cap_picture(pixels: int) -> str:
    """A blank lossless WebP just under ``pixels``, in base64."""
    from PIL import Image

    side = int((pixels * 0.98) ** 0.5)
    buf = io.BytesIO()
    Image.new("RGB", (side, side), (255, 255, 255)).save(buf, "WEBP", lossless=True)
    return base64.b64encode(buf.getvalue()).decode()


def bodies(limits: dict, hard: list[dict]) -> dict[str, list[bytes]]:
    """The attacker's request bodies, made once (the server's caps from its /api/limits)."""
    cap = limits.get("admission", {}).get("picture_pixels", 40_000_000)  # main: the reader's own cap
    pad = limits["max_input_bytes"] - 4096
    texts = [json.dumps(p) for p in hard]
    return {
        "pictures": [json.dumps({"image": near_cap_picture(cap)}).encode()],
        "hard-solves": [json.dumps({"puzzle": p}).encode() for p in hard],
        "parses": [json.dumps({"text": t + " " * (pad - len(t))}).encode() for t in texts],
    }


PATHS = {"pictures": "/api/read-picture", "hard-solves": "/api/solve", "parses": "/api/parse"}


# -- clients -----------------------------------------------------------------------------------
def address(k: int) -> str:
    return f"127.0.0.{k}"


def client(base: str, k: int, connections: int = 10) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address(k), retries=0,
                                         limits=httpx.Limits(max_connections=connections,
                                                             max_keepalive_connections=connections))
    return httpx.AsyncClient(base_url=base, transport=transport, timeout=PLAYER_TIMEOUT)


async def player(base: str, k: int, puzzles: list[dict], stop: asyncio.Event, out: list) -> None:
    from hashikit.checker import check
    from hashikit.formats.jsonfmt import puzzle_from_data
    from hashikit.model import Solution

    rng = random.Random(k)
    async with client(base, k, 2) as c:
        while not stop.is_set():
            p = rng.choice(puzzles)
            t0 = time.perf_counter()
            try:
                r = await c.post("/api/solve", json={"puzzle": p})
            except httpx.HTTPError as exc:
                out.append((time.perf_counter() - t0, type(exc).__name__))
                continue
            took = time.perf_counter() - t0
            what: int | str = r.status_code
            if r.status_code == 200:
                got = r.json()
                if got["status"] != "solved" or not check(puzzle_from_data(p, "p"), Solution.from_list(got["bridges"])).ok:
                    what = f"200 {got['status']}"
            out.append((took, what))
            await asyncio.sleep(THINK)


async def hammer(base: str, ks: list[int], path: str, payloads: list[bytes], stop: asyncio.Event, out: list) -> None:
    """``AT_ONCE`` loops sending ``payloads`` in turn to ``path`` until ``stop``, spread over the
    addresses ``ks``."""
    clients = [client(base, k, AT_ONCE) for k in ks]
    try:
        async def loop(i: int) -> None:
            c, n = clients[i % len(clients)], i
            while not stop.is_set():
                body = payloads[n % len(payloads)]
                n += 1
                try:
                    r = await c.post(path, content=body, headers={"content-type": "application/json"})
                    out.append((r.status_code, "retry-after" in r.headers))
                    if r.status_code != 200:
                        await asyncio.sleep(0.1)
                except httpx.HTTPError as exc:
                    out.append((type(exc).__name__, False))
                    await asyncio.sleep(0.1)

        await until_stopped([asyncio.ensure_future(loop(i)) for i in range(AT_ONCE)], stop)
    finally:
        for c in clients:
            await c.aclose()


async def until_stopped(tasks: list, stop: asyncio.Event, grace: float = 1.0) -> None:
    """Wait for ``tasks`` until ``stop``, then ``grace`` seconds more; what still waits for an answer
    then is given up (an attacker does not wait out the work it started)."""
    await stop.wait()
    done, pending = await asyncio.wait(tasks, timeout=grace)
    for t in pending:
        t.cancel()
    await asyncio.gather(*pending, return_exceptions=True)


async def flood(base: str, ks: list[int], puzzles: list[dict], stop: asyncio.Event, out: list) -> None:
    """``FLOOD`` small solves at once, every ``FLOOD_EVERY`` seconds, spread over the addresses ``ks``."""
    payloads = [json.dumps({"puzzle": p}).encode() for p in puzzles]
    clients = [client(base, k, FLOOD) for k in ks]
    try:
        async def one(i: int) -> None:
            try:
                r = await clients[i % len(clients)].post("/api/solve", content=payloads[i % len(payloads)],
                                 headers={"content-type": "application/json"})
                out.append((r.status_code, "retry-after" in r.headers))
            except httpx.HTTPError as exc:
                out.append((type(exc).__name__, False))

        while not stop.is_set():
            burst = asyncio.gather(*(one(i) for i in range(FLOOD)))
            try:
                await asyncio.wait_for(asyncio.shield(stop.wait()), FLOOD_EVERY)
            except asyncio.TimeoutError:
                pass
            if stop.is_set():  # the burst's answers come within seconds: they are counted
                await until_stopped([burst], stop, PLAYER_TIMEOUT)
                return
            await burst
    finally:
        for c in clients:
            await c.aclose()


async def slowloris(port: int, ks: list[int], stop: asyncio.Event, held: list, body: bool) -> None:
    """``SLOW_CONNECTIONS`` connections that send their request (its headers; with ``body``, its
    body after whole headers) one byte every ``DRIP`` seconds; ``held`` gets, for each, how long
    it stayed open and whether the server closed it (``[seconds, False]``: still open when the
    phase ended, held that long so far)."""
    head = b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    async def one(i: int) -> None:
        t0 = time.monotonic()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address(ks[i % len(ks)]), 0))
        except OSError:
            held.append([0.0, True])
            return
        try:
            if body:
                writer.write(head + b"content-length: 100000\r\n\r\n")
                drip = b'{"puzzle": ' + b" " * 99_988 + b"}"
            else:
                drip = head + b"content-length: 2\r\n" + b"x-pad: " + b"a" * 10_000 + b"\r\n\r\n{}"
            for byte in drip:
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    if await asyncio.wait_for(reader.read(1024), DRIP) == b"":
                        break  # closed by the server (or answered and closed)
                    # an answer (429, 408): read on until the server closes
                    while await asyncio.wait_for(reader.read(1024), 5) != b"":
                        pass
                    break
                except asyncio.TimeoutError:
                    if stop.is_set():
                        held.append([time.monotonic() - t0, False])
                        return
            held.append([time.monotonic() - t0, True])
        except (OSError, asyncio.TimeoutError):
            held.append([time.monotonic() - t0, True])
        finally:
            writer.close()

    await asyncio.gather(*(one(i) for i in range(SLOW_CONNECTIONS)))


# -- a phase -----------------------------------------------------------------------------------
def attacker(attack: str, server: Server, ks: list[int], seconds: float, payloads: Path, out: Path, nice: int = 0):
    """The attack in a process of its own (its many requests must not delay the players' clock),
    ``nice`` lower in CPU priority (an attacker on another machine takes none of the server's CPUs)."""
    return subprocess.Popen([sys.executable, __file__, "--attack", attack, "--base", server.base, "--port",
                             str(server.port), "--ks", ",".join(map(str, ks)), "--seconds", str(seconds),
                             "--payloads", str(payloads), "--json", str(out), "--attacker-nice", str(nice)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def attack_main(args) -> int:
    """``--attack``: wait for "go" on standard input, attack for ``--seconds``, write what came back."""
    ks = [int(k) for k in args.ks.split(",")]
    folder = Path(args.payloads)
    if args.attacker_nice:
        os.nice(args.attacker_nice)
    stop = asyncio.Event()
    sent: list = []
    held: dict[str, list] = {"headers": [], "body": []}

    async def go():
        loop = asyncio.get_running_loop()
        loop.call_later(args.seconds, stop.set)
        if args.attack == "flood":
            small = json.loads((folder / "small.json").read_text())
            await flood(args.base, ks, small, stop, sent)
        elif args.attack == "slowloris":
            more = [k + len(ks) for k in ks]
            await asyncio.gather(slowloris(args.port, ks, stop, held["headers"], False),
                                 slowloris(args.port, more, stop, held["body"], True))
        else:
            bodies = [f.read_bytes() for f in sorted(folder.glob(f"{args.attack}-*.json"))]
            await hammer(args.base, ks, PATHS[args.attack], bodies, stop, sent)

    print("ready", flush=True)
    sys.stdin.readline()
    start = os.times()
    asyncio.run(go())
    end = os.times()
    Path(args.json).write_text(json.dumps({"sent": sent, "held": held if args.attack == "slowloris" else {},
                                           "cpu": end.user + end.system - start.user - start.system}))
    return 0


async def phase(server: Server, name: str, seconds: float, players: int, small: list[dict],
                payloads: Path, spread: int = 1, nice: int = 0) -> dict:
    stop = asyncio.Event()
    played: list = []
    peak = [0, 0]

    async def sample() -> None:  # in a thread: reading /proc takes 20 to 100 ms, the players' loop must not wait
        while not stop.is_set():
            rss, pss = await asyncio.get_running_loop().run_in_executor(None, server.memory)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            await asyncio.sleep(0.25)

    attacks = ATTACKS if name == "all" else (name,) if name in ATTACKS else ()
    procs = {}
    for n, attack in enumerate(attacks):
        ks = [ATTACKER + 2 * spread * n + j for j in range(spread)]
        procs[attack] = attacker(attack, server, ks, seconds, payloads, payloads / f"out-{attack}.json", nice)
    for proc in procs.values():
        if proc.stdout.readline().strip() != "ready":
            raise RuntimeError("an attacker did not start")
    for proc in procs.values():
        proc.stdin.write("go\n")
        proc.stdin.flush()
    tasks = [asyncio.ensure_future(player(server.base, PLAYER + i, small, stop, played)) for i in range(players)]
    tasks.append(asyncio.ensure_future(sample()))
    load_before = os.getloadavg()[0]
    cpu_before, own_before = server.cpu(), os.times()
    await asyncio.sleep(seconds)
    stop.set()
    cpu_after, own_after = server.cpu(), os.times()
    done, pending = await asyncio.wait(tasks, timeout=PLAYER_TIMEOUT + 5)
    for t in pending:
        t.cancel()
    sent, held, attacker_cpu = {}, {}, 0.0
    for attack, proc in procs.items():
        await asyncio.get_running_loop().run_in_executor(None, proc.wait)
        got = json.loads((payloads / f"out-{attack}.json").read_text())
        sent[attack] = got["sent"]
        held.update(got["held"])
        attacker_cpu += got["cpu"]
    players_cpu = own_after.user + own_after.system - own_before.user - own_before.system
    admission = server.limits.get("admission", {})
    timeouts = {k: admission[f"{k[:-1] if k == 'headers' else k}_timeout"] for k in held
                if f"{k[:-1] if k == 'headers' else k}_timeout" in admission}
    return {"phase": name, "seconds": seconds, "played": played, "sent": sent, "held": held, "timeouts": timeouts,
            "rss": peak[0], "pss": peak[1], "load": (load_before, os.getloadavg()[0]),
            "cpu": {"server": cpu_after[0] - cpu_before[0], "workers": cpu_after[1] - cpu_before[1],
                    "attacker": attacker_cpu, "players": players_cpu}}


async def drain(server: Server, puzzle: dict, within: float = 60.0) -> float:
    """Wait until a solve answers in under a second again (what an attack left queued is done)."""
    t0 = time.monotonic()
    async with client(server.base, PLAYER - 1, 1) as c:
        while time.monotonic() - t0 < within:
            t = time.perf_counter()
            try:
                r = await c.post("/api/solve", json={"puzzle": puzzle})
                if r.status_code == 200 and time.perf_counter() - t < 1.0:
                    break
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.5)
    return time.monotonic() - t0


def run_tree(tree: str | None, phases, seconds: float, players: int, spread: int = 1, hard: int = 4,
             nice: int = 0) -> dict:
    """Start a server from ``tree``, run the ``phases`` on it, stop it."""
    server = Server(tree)
    try:
        return run_on(server, phases, seconds, players, spread, hard, nice)
    finally:
        server.stop()


def run_on(server: Server, phases, seconds: float, players: int, spread: int = 1, hard: int = 4,
           nice: int = 0) -> dict:
    """The ``phases`` against ``server`` (started, perhaps still starting), one after another, each
    followed by a wait until the server answers promptly again."""
    small = small_puzzles()
    hard_ones = hard_puzzles(hard)  # while the server starts
    server.wait()
    with tempfile.TemporaryDirectory() as tmp:
        payloads = Path(tmp)
        (payloads / "small.json").write_text(json.dumps(small))
        for attack, made in bodies(server.limits, hard_ones).items():
            for n, body in enumerate(made):
                (payloads / f"{attack}-{n}.json").write_bytes(body)
        idle = server.memory()

        async def all_phases():
            out = []
            await drain(server, small[0])
            for name in phases:
                out.append(await phase(server, name, seconds, players, small, payloads, spread, nice))
                out[-1]["drain"] = await drain(server, small[0])
            return out

        results = asyncio.run(all_phases())
    alive = httpx.get(f"{server.base}/api/limits", timeout=30).status_code == 200
    return {"tree": server.tree or "installed", "limits": server.limits, "idle": idle, "phases": results, "alive": alive}


# -- the figures -------------------------------------------------------------------------------
def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def figures(p: dict) -> dict:
    """A phase's numbers: the players' latencies (ms) and answers, the attacker's answers."""
    lat = [t * 1000 for t, _ in p["played"]]
    answers: dict[str, int] = {}
    for _, what in p["played"]:
        answers[str(what)] = answers.get(str(what), 0) + 1
    sent: dict[str, dict] = {}
    for attack, got in p["sent"].items():
        codes: dict[str, int] = {}
        told = refused = 0
        for status, retry in got:
            codes[str(status)] = codes.get(str(status), 0) + 1
            if status in (429, 503):
                refused += 1
                told += retry
        sent[attack] = {"codes": codes, "refused": refused, "with_retry_after": told}
    held = {}
    for kind, times in p["held"].items():
        closed = [t for t, shut in times if shut]
        timeout = p.get("timeouts", {}).get(kind)
        held[kind] = {"connections": len(times), "still_open": len(times) - len(closed),
                      "longest_closed": max(closed) if closed else None,
                      "longest": max((t for t, _ in times), default=None), "timeout": timeout,
                      "past_timeout": None if timeout is None else sum(t > timeout + SLACK for t, _ in times)}
    return {"phase": p["phase"], "requests": len(lat), "p50": percentile(lat, 0.5), "p99": percentile(lat, 0.99),
            "max": max(lat) if lat else float("nan"), "answers": answers, "sent": sent, "held": held,
            "rss": p["rss"], "pss": p["pss"], "load": p["load"], "drain": p.get("drain"), "cpu": p.get("cpu")}


def mib(n: int) -> str:
    return f"{n / 2 ** 20:.0f} MiB"


def table(name: str, run: dict) -> list[str]:
    bound = run["limits"].get("admission", {}).get("server_memory")
    peak = max((p["pss"] for p in run["phases"]), default=0)
    stated = ("no stated memory bound" if bound is None else
              f"stated memory bound {mib(bound)} (proportional), peak {mib(peak)}: "
              + ("held" if peak < bound else "NOT held"))
    lines = [f"### {name} (`{run['tree']}`)", "",
             f"Idle server: {mib(run['idle'][0])} resident, {mib(run['idle'][1])} proportional; {stated}. "
             f"Server still answering afterwards: {'yes' if run['alive'] else 'NO'}.", "",
             "| phase | player solves | p50 | p99 | worst | players' answers | attacker's answers (429/503 with Retry-After) "
             "| slow connections: still open / longest held / held past the timeout | peak memory (resident / proportional) "
             "| CPU s: server, its workers, attacker, players | load (1 min) |",
             "|---|---:|---:|---:|---:|---|---|---|---|---|---|"]
    for p in run["phases"]:
        f = figures(p)
        attacker = "; ".join(
            f"{a}: " + ", ".join(f"{c}×{n}" for c, n in sorted(s["codes"].items()))
            + (f" ({s['with_retry_after']}/{s['refused']})" if s["refused"] else "")
            for a, s in f["sent"].items()) or "–"
        slow = "; ".join(f"{k}: {h['still_open']}/{h['connections']}, "
                         + (f"{h['longest']:.1f} s" if h["longest"] is not None else "–") + ", "
                         + ("no timeout" if h["timeout"] is None else f"{h['past_timeout']} (of {h['timeout']:g} s)")
                         for k, h in f["held"].items()) or "–"
        answers = ", ".join(f"{c}×{n}" for c, n in sorted(f["answers"].items()))
        c = f["cpu"]
        lines.append(f"| {f['phase']} | {f['requests']} | {f['p50']:.0f} ms | {f['p99']:.0f} ms | {f['max']:.0f} ms | "
                     f"{answers} | {attacker} | {slow} | {mib(f['rss'])} / {mib(f['pss'])} | "
                     f"{c['server']:.1f}, {c['workers']:.1f}, {c['attacker']:.1f}, {c['players']:.1f} | "
                     f"{f['load'][0]:.1f} → {f['load'][1]:.1f} |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--spread", type=int, default=1, metavar="N",
                    help="each attack comes from N addresses (a distributed attacker; default 1)")
    ap.add_argument("--attacker-nice", type=int, default=0, metavar="N",
                    help="run the attacker's processes N lower in CPU priority, as if it were on another "
                         "machine (default 0: it competes with the server for these CPUs)")
    ap.add_argument("--phases", nargs="+", choices=PHASES, default=list(PHASES))
    ap.add_argument("--side-by-side", nargs="+", metavar="NAME=TREE_OR_REVISION",
                    help="serve from each in turn (a folder, or a git revision whose package is extracted)")
    ap.add_argument("--out", default=str(HERE / "results" / "load.md"))
    ap.add_argument("--quick", action="store_true",
                    help="the test suite's run: 2 players, every attack at once for 2 s, the installed package; "
                         "no report unless --out is given")
    ap.add_argument("--json", help="write the figures as JSON here too")
    ap.add_argument("--append", action="store_true", help="add this run to the report at --out (its own header "
                                                         "and tables) instead of writing a new one")
    for hidden in ("--attack", "--base", "--port", "--ks", "--payloads"):  # an attacker's own process
        ap.add_argument(hidden, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.attack:
        args.port = int(args.port)
        return attack_main(args)

    trees = [spec.split("=", 1) for spec in args.side_by_side] if args.side_by_side else [("this tree", None)]
    runs = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name, where in trees:
            folder = where
            if where is not None and not Path(where).is_dir():
                (Path(tmp) / name).mkdir()
                folder = str(extract_package(where, Path(tmp) / name))
            if args.quick:
                runs[name] = run_tree(folder, ("all",), 2.0, 2, hard=1)
            else:
                runs[name] = run_tree(folder, args.phases, args.seconds, args.players, spread=args.spread,
                                      nice=args.attacker_nice)
            print(f"{name}: done", file=sys.stderr, flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({n: {**r, "figures": [figures(p) for p in r["phases"]],
                                                    "phases": None} for n, r in runs.items()}, indent=1))
    if args.quick and "--out" not in sys.argv:
        return 0 if all(r["alive"] for r in runs.values()) else 1
    cpus = os.cpu_count()
    lines = ["" if args.append else "# The web server under attack", "",
             f"{'## Another run: ' if args.append else ''}`python benchmarks/load.py {' '.join(sys.argv[1:])}`, {git_state()}, {time.strftime('%Y-%m-%d %H:%M')}, "
             f"{platform.machine()}, {cpus} CPUs, Python {platform.python_version()}. The load tool runs on the "
             f"same {cpus} CPUs as the server, and the machine is shared: each row gives the 1-minute load average "
             f"at the phase's start and end.", "",
             f"{args.players} normal players each solve a 15x15 puzzle (45 islands), pause {THINK} s, and again; "
             f"phases of {args.seconds:g} s. Attacks: near-cap pictures, hard 60x60 solves and max-size parses, "
             f"{AT_ONCE} at once; {FLOOD} small solves at once every {FLOOD_EVERY:g} s; {SLOW_CONNECTIONS} "
             f"slow-header and {SLOW_CONNECTIONS} slow-body connections dripping a byte every {DRIP:g} s. Each "
             f"client has its own address in 127.0.0.0/8 (each attack {args.spread} of them). The attacker "
             f"runs {args.attacker_nice} lower in CPU priority than the rest. Answers are written "
             f"`status×count`.", ""]
    for name, run in runs.items():
        lines += table(name, run) + [""]
    before = Path(args.out).read_text() if args.append and Path(args.out).exists() else ""
    Path(args.out).write_text(before + "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
