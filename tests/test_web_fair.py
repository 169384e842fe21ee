"""The web server's admission (hashikit/web/admission.py, limits.Admission): costs declared before
work, lanes with bounded queues and waits, per-client limits, overload answered 503 or 429 with
Retry-After and never 400, the time limit counted from the start of work, memory-capped workers
replaced when they run out, trusted proxies."""

from __future__ import annotations

import asyncio
import base64
import io
import os
import time
import warnings
from concurrent.futures import ThreadPoolExecutor

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from hashikit import limits, service
from hashikit.limits import WEB, WEB_ADMISSION
from hashikit.web import jobs
from hashikit.web.admission import Gatekeeper, Lane, Refused, client_of, proxies
from hashikit.web.app import create_app

import web_jobs
from asgi_calls import post_scope, receiver, sender
from conftest import loaded

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SQUARE = {"rows": 3, "cols": 3, "islands": [[0, 0, 3], [0, 2, 3], [2, 0, 3], [2, 2, 3]]}


def admission(**changes) -> limits.Admission:
    return limits.Admission(**{**{name: getattr(WEB_ADMISSION, name) for name in WEB_ADMISSION._fields}, **changes})


# -- costs, declared before any work ------------------------------------------------------------
def test_a_board_costs_its_cells_and_islands_read_without_building_it():
    cost = service.puzzle_cost({"rows": 15, "cols": 15, "islands": [[0, 0, 1]] * 45}, WEB)
    assert (cost.cells, cost.islands, cost.picture) == (225, 45, False)
    assert service.puzzle_cost({"grid": [[1, 0, 2], [0, 0, 0]]}, WEB) == service.Cost(cells=6, islands=2)
    assert service.puzzle_cost({"rows": "x"}, WEB) == service.Cost()  # the reader names what is wrong
    with pytest.raises(service.BadInput, match="sides run from 1 to 60"):
        service.puzzle_cost({"rows": 61, "cols": 10, "islands": []}, WEB)
    with pytest.raises(service.BadInput, match="islands"):
        service.puzzle_cost({"rows": 60, "cols": 60, "islands": [[0, 0, 1]] * 3601}, WEB)


def test_text_costs_the_board_its_format_declares_or_its_length():
    assert service.text_cost("7x7m2:4d2b1b4a26b3m1c3c3c2d3", None, WEB).cells == 49
    assert service.text_cost("3.3\n...\n3.3\n", None, WEB).cells == 9
    with pytest.raises(service.BadInput, match="sides run from 1 to 60"):
        service.text_cost("2000x2000:" + "a" * 900_000, None, WEB)
    with pytest.raises(service.BadInput, match="bytes"):
        service.text_cost("." * (WEB.max_input_bytes + 1), None, WEB)


def webp(width: int, height: int) -> bytes:
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (width, height), (255, 255, 255)).save(buf, "WEBP", lossless=True)
    return buf.getvalue()


def test_a_picture_costs_the_pixels_its_header_declares():
    raw = webp(640, 480)
    assert service.picture_cost(raw, 13_000_000) == service.Cost(pixels=640 * 480, picture=True)
    assert service.picture_cost(b"not a picture", 13_000_000) == service.Cost(picture=True)
    big = webp(4000, 3500)  # 14 megapixels in a few hundred bytes
    assert len(big) < 10_000
    with pytest.raises(service.BadInput, match=r"4000x3500 pixels \(14.0 megapixels\).* at most 13 megapixels"):
        service.picture_cost(big, 13_000_000)


def test_lanes_follow_the_declared_cost():
    gate = Gatekeeper(WEB_ADMISSION, 2)
    assert gate.lane_for(service.Cost(cells=625, islands=200)) == "light"
    assert gate.lane_for(service.Cost(cells=9), WEB_ADMISSION.light_bytes) == "light"
    assert gate.lane_for(service.Cost(cells=9), WEB_ADMISSION.light_bytes + 1) == "heavy"  # a padded body
    assert gate.lane_for(service.Cost(cells=626, islands=10)) == "heavy"
    assert gate.lane_for(service.Cost(cells=100, islands=201)) == "heavy"
    assert gate.lane_for(service.Cost(pixels=100, picture=True)) == "heavy"


# -- lanes and per-client limits (on the event loop, as the server runs them) --------------------
def test_a_lane_queues_to_its_length_and_its_wait_then_refuses_503_with_retry_after():
    async def scenario():
        lane = Lane("light", 1, 1)
        await lane.enter("a", 1.0)
        waiting = asyncio.ensure_future(lane.enter("b", 0.2))
        await asyncio.sleep(0)
        with pytest.raises(Refused) as full:  # the queue holds one
            await lane.enter("c", 1.0)
        with pytest.raises(Refused) as late:  # b's wait runs out
            await waiting
        lane.leave("a")
        await lane.enter("d", 0.1)  # the slot is free again
        return full.value, late.value, lane

    full, late, lane = asyncio.run(scenario())
    for refused in (full, late):
        assert refused.code == 503 and refused.status == "busy" and refused.headers() == {"retry-after": "1"}
    assert "waiting already" in full.message and "within 0.2 s" in late.message
    assert lane.waiting == [] and lane.free == 0 and dict(lane.running) == {"d": 1}


def test_a_freed_slot_goes_to_the_client_running_the_fewest_then_the_oldest():
    async def scenario():
        lane = Lane("light", 2, 10)
        await lane.enter("flood", 1)
        await lane.enter("flood", 1)
        order = []

        async def want(client):
            await lane.enter(client, 5)
            order.append(client)

        tasks = [asyncio.ensure_future(want(c)) for c in ("flood", "flood", "flood", "player")]
        await asyncio.sleep(0)
        for done in ("flood", "flood", "player", "flood"):
            lane.leave(done)
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        return order

    # the player came last and still goes first: it runs nothing yet, the flood two
    assert asyncio.run(scenario()) == ["player", "flood", "flood", "flood"]


def test_a_full_queue_makes_room_for_a_client_with_less_by_pushing_out_the_crowds_newest():
    async def scenario():
        lane = Lane("light", 1, 2)
        await lane.enter("flood", 1)
        first = asyncio.ensure_future(lane.enter("flood", 5))
        newest = asyncio.ensure_future(lane.enter("flood", 5))
        await asyncio.sleep(0)
        with pytest.raises(Refused):  # the flood cannot push out its own
            await lane.enter("flood", 5)
        player = asyncio.ensure_future(lane.enter("player", 5))
        await asyncio.sleep(0)
        with pytest.raises(Refused) as pushed:
            await newest
        lane.leave("flood")
        await first
        lane.leave("flood")
        await player
        return pushed.value, lane

    pushed, lane = asyncio.run(scenario())
    assert pushed.code == 503 and "among the most" in pushed.message and pushed.headers() == {"retry-after": "1"}
    assert dict(lane.running) == {"player": 1} and not lane.waiting and lane.free == 0


def test_a_cancelled_waiter_gives_back_what_it_was_granted():
    async def scenario():
        lane = Lane("light", 1, 5)
        await lane.enter("a", 1)
        waiter = asyncio.ensure_future(lane.enter("b", 5))
        await asyncio.sleep(0)
        waiter.cancel()
        await asyncio.sleep(0)
        lane.leave("a")
        return lane

    lane = asyncio.run(scenario())
    assert lane.free == 1 and not lane.waiting and not lane.running


def test_heavy_work_is_limited_per_client_at_once_and_per_minute_429():
    async def scenario():
        gate = Gatekeeper(admission(client_heavy_at_once=1, client_heavy_per_minute=2), 2)
        got = []
        async with gate.slot("a", "heavy"):
            with pytest.raises(Refused) as twice:
                async with gate.slot("a", "generate"):
                    pass
            got.append(twice.value)
            async with gate.slot("b", "heavy"):  # another client is not held up
                pass
        async with gate.slot("a", "light"):  # light work is not counted
            pass
        async with gate.slot("a", "heavy"):
            pass
        with pytest.raises(Refused) as minute:
            async with gate.slot("a", "heavy"):
                pass
        got.append(minute.value)
        return got, gate

    (twice, minute), gate = asyncio.run(scenario())
    assert twice.code == 429 and twice.status == "limited" and "at once" in twice.message
    assert minute.code == 429 and "in the last minute" in minute.message and 55 <= minute.retry_after <= 60
    assert not gate.heavy_now and all(lane.free == lane.at_once for lane in gate.lanes.values())


def test_the_client_is_the_peer_unless_a_trusted_proxy_names_it():
    trusted = proxies(["127.0.0.1", "10.0.0.0/8"])

    def scope(peer, *forwarded):
        return {"client": (peer, 5000), "headers": [(b"x-forwarded-for", f.encode()) for f in forwarded]}

    assert client_of(scope("203.0.113.9", "1.2.3.4"), trusted) == "203.0.113.9"  # not a proxy: its own address
    assert client_of(scope("127.0.0.1", "1.2.3.4"), trusted) == "1.2.3.4"
    # a client that sends the header itself is named by what the proxy appended, from the right
    assert client_of(scope("127.0.0.1", "6.6.6.6, 1.2.3.4"), trusted) == "1.2.3.4"
    assert client_of(scope("127.0.0.1", "1.2.3.4, 10.1.1.1", "10.2.2.2"), trusted) == "1.2.3.4"
    assert client_of(scope("127.0.0.1"), trusted) == "127.0.0.1"
    assert client_of(scope("127.0.0.1", "1.2.3.4"), ()) == "127.0.0.1"  # no proxy trusted: the header is ignored
    with pytest.raises(ValueError, match="not an address"):
        proxies(["nginx"])


# -- through the app ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def warm():
    """The app with its lanes' warm workers, every one of them ready."""
    with TestClient(create_app()) as c:
        for pool in {id(p): p for p in c.app.state.pools.values()}.values():
            pool.wait_ready(pool.size)
        yield c


def test_one_client_has_at_most_client_at_once_requests_in_flight_the_rest_429(monkeypatch):
    from functools import partial

    # the one-off workers are forks: they see it; a second's nap keeps the first four in flight
    monkeypatch.setattr(jobs, "check", partial(web_jobs.nap_check, seconds=1.0))
    with TestClient(create_app(pool_size=0, admission=admission(client_at_once=4, light_at_once=6))) as c:
        with ThreadPoolExecutor(6) as threads:
            answers = list(threads.map(lambda _: c.post("/api/check", json={"puzzle": SQUARE, "bridges": []}),
                                       range(6)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200] * 4 + [429] * 2, codes
    for r in answers:
        if r.status_code == 429:
            assert r.headers["retry-after"] == "1" and r.json()["status"] == "limited"


def test_a_request_known_heavy_is_refused_before_its_body_is_read(monkeypatch):
    """A client at its heavy limit sends a picture, and a parse whose body declares more than the
    light bytes: both are 429 at the door, their bodies never read (a client that keeps sending
    heavy work costs the server no parsing)."""
    import json

    app = create_app(pool_size=0)
    gate = app.state.gate
    gate.heavy_now["127.0.0.1"] = WEB_ADMISSION.client_heavy_at_once  # its heavy request runs
    big = json.dumps({"text": "3.3\n...\n3.3\n" + " " * WEB_ADMISSION.light_bytes}).encode()

    async def post(path, body):
        read, sent = [], []
        await app(post_scope(path, body), receiver(body, None, read), sender(sent))
        return sent[0], read

    for path, body in (("/api/read-picture", b'{"image": "AAAA"}'), ("/api/parse", big)):
        start, read = asyncio.run(post(path, body))
        assert start["status"] == 429 and not read, (path, start)
        assert (b"retry-after", b"2") in start["headers"]
    del gate.heavy_now["127.0.0.1"]
    start, read = asyncio.run(post("/api/parse", big))  # below its limit: read, and heavy work
    assert start["status"] == 200 and read


def test_overload_is_503_with_retry_after_never_400(monkeypatch):
    monkeypatch.setattr(jobs, "check", web_jobs.nap_check)
    app = create_app(pool_size=0, admission=admission(light_at_once=1, queue_length=1, queue_wait=0.2,
                                                      client_at_once=10))
    with TestClient(app) as c:
        with ThreadPoolExecutor(3) as threads:
            answers = list(threads.map(lambda _: c.post("/api/check", json={"puzzle": SQUARE, "bridges": []}),
                                       range(3)))
    codes = sorted(r.status_code for r in answers)
    assert codes == [200, 503, 503], codes
    for r in answers:
        if r.status_code == 503:
            assert int(r.headers["retry-after"]) >= 1 and r.json()["status"] == "busy", r.text


def test_a_client_that_leaves_while_its_request_waits_gives_up_its_place(monkeypatch):
    """The page aborts a request (a newer edit in the constructor): if it was waiting for a slot,
    it leaves the queue at once, and no longer counts against its client."""
    import json

    monkeypatch.setattr(jobs, "check", web_jobs.nap_check)
    app = create_app(pool_size=0, admission=admission(light_at_once=1, queue_wait=5.0))
    body = json.dumps({"puzzle": SQUARE, "bridges": []}).encode()

    async def drive():
        staying, leaving = [], []
        first = asyncio.ensure_future(app(post_scope("/api/check", body), receiver(body), sender(staying)))
        await asyncio.sleep(0.1)
        start = time.monotonic()
        await app(post_scope("/api/check", body), receiver(body, 0.2), sender(leaving))  # waits, then leaves
        took = time.monotonic() - start
        lane = app.state.gate.lanes["light"]
        queued = len(lane.waiting)
        await first
        return took, queued, staying, leaving

    took, queued, staying, leaving = asyncio.run(drive())
    assert leaving[0]["status"] == 499 and took < loaded(1.0), (leaving[0], took)
    assert queued == 0 and staying[0]["status"] == 200


def test_the_time_limit_counts_from_when_the_work_starts(monkeypatch):
    """Two 0.8 s hints, one slot, a 1.3 s limit: the second waits 0.8 s for the slot and still has
    its whole limit (it was answered 'unknown', or 400 for a picture, having done no work).  On a
    loaded machine every time is stretched alike (nap and limit), so the second's 1.6 of waiting
    and napping still outlasts a limit counted from its arrival, with the same 0.5 of slack."""
    stretch = loaded(1.0)
    monkeypatch.setattr(web_jobs, "NAP", 0.8 * stretch)
    monkeypatch.setattr(jobs, "hint", web_jobs.nap_hint)
    app = create_app(pool_size=0, solve_time_limit=1.3 * stretch, admission=admission(light_at_once=1, queue_wait=5.0))
    with TestClient(app) as c:
        with ThreadPoolExecutor(2) as threads:
            answers = list(threads.map(lambda _: c.post("/api/hint", json={"puzzle": SQUARE}), range(2)))
    assert [r.json()["status"] for r in answers] == ["hint", "hint"], [r.text for r in answers]


def test_a_light_solve_runs_its_engine_in_the_worker_a_heavy_one_in_a_process_of_its_own(warm, monkeypatch):
    """A player's board is solved in the light worker itself, killed at the deadline (no process
    to start: the most of a small solve's time); a heavy board's engine runs in a child of its
    worker, which hands back the solutions found by the deadline."""
    monkeypatch.setattr(jobs, "solve", web_jobs.where_solve)
    light = warm.post("/api/solve", json={"puzzle": SQUARE}).json()
    heavy = warm.post("/api/solve", json={"puzzle": {"rows": 30, "cols": 30, "islands": [[0, 0, 1], [0, 29, 1]]}}).json()
    assert light["in_worker"] is True and heavy["in_worker"] is False, (light, heavy)
    assert light["seconds"] == heavy["seconds"] == WEB.default_time_limit


def test_a_worker_out_of_memory_is_replaced_and_its_request_answered_503(warm, monkeypatch):
    light = warm.app.state.pools["light"]
    before = set(light.pids())
    cap = f"{WEB_ADMISSION.worker_memory // 2 ** 20} MiB"
    monkeypatch.setattr(jobs, "check", web_jobs.hog_check)
    r = warm.post("/api/check", json={"puzzle": SQUARE, "bridges": []})
    assert r.status_code == 503 and r.headers["retry-after"] == "2" and cap in r.json()["error"], r.text
    monkeypatch.setattr(jobs, "check", web_jobs.die_check)
    r = warm.post("/api/check", json={"puzzle": SQUARE, "bridges": []})
    assert r.status_code == 503 and "SIGKILL" in r.json()["error"] and r.headers["retry-after"] == "2", r.text
    monkeypatch.undo()
    end = time.monotonic() + loaded(20)
    while (len(light.pids()) < light.size or light.starting()) and time.monotonic() < end:
        time.sleep(0.05)
    after = set(light.pids())
    assert len(after) == light.size and len(before - after) == 2  # both replaced
    r = warm.post("/api/check", json={"puzzle": SQUARE, "bridges": []})
    assert r.status_code == 200 and r.json()["complete"] is False


def test_the_workers_carry_their_memory_cap_and_the_heavy_ones_run_nicer(warm):
    for name, nice in (("light", 0), ("heavy", 10)):
        for pid in warm.app.state.pools[name].pids():
            with open(f"/proc/{pid}/limits") as fh:
                line = next(ln for ln in fh if ln.startswith("Max address space"))
            assert str(WEB_ADMISSION.worker_memory) in line, line
            with open(f"/proc/{pid}/stat") as fh:
                stat = fh.read().rsplit(")", 1)[1].split()
            assert int(stat[16]) - os.nice(0) == nice, (name, stat[16])


def test_a_picture_over_the_pixel_cap_is_400_before_it_is_decoded():
    big = base64.b64encode(webp(4000, 3500)).decode()
    with TestClient(create_app(pool_size=0)) as c:
        start = time.perf_counter()
        r = c.post("/api/read-picture", json={"image": big})
        took = time.perf_counter() - start
    assert r.status_code == 400 and "at most 13 megapixels" in r.json()["error"], r.text
    assert took < loaded(0.5)


def test_parse_refuses_a_2000x2000_board_in_under_a_tenth_of_a_second():
    padded = "2000x2000m2:" + "a" * 900_000
    with TestClient(create_app(pool_size=0)) as c:
        c.post("/api/parse", json={"text": "3.3\n...\n3.3\n"})  # warm
        for text in (padded, "https://puzz.link/p?hashikake/2000/2000/" + "g" * 900_000):
            start = time.perf_counter()
            r = c.post("/api/parse", json={"text": text})
            took = time.perf_counter() - start
            assert r.status_code == 400 and "sides run from 1 to 60" in r.json()["error"], r.text
            assert took < loaded(0.1), took


def test_parse_reads_in_a_worker_never_in_the_servers_process(warm, monkeypatch):
    """The server's own process builds no board: /api/parse's reading is a job like the others."""
    import hashikit.formats as formats

    def never(*args, **kwargs):
        raise AssertionError("a board was read in the server's process")

    monkeypatch.setattr(formats, "read_text", never)  # the warm workers were started before: unaffected
    r = warm.post("/api/parse", json={"text": "3.3\n...\n3.3\n"})
    assert r.status_code == 200 and len(r.json()["links"]) == 4


def test_post_to_limits_is_405_and_a_get_to_an_endpoint_is_405():
    with TestClient(create_app(pool_size=0)) as c:
        for r in (c.post("/api/limits", json={}), c.post("/api/limits", content=b"x"), c.get("/api/solve")):
            assert r.status_code == 405 and "not allowed" in r.json()["error"], r.text


def test_limits_and_openapi_state_the_admission():
    with TestClient(create_app(pool_size=0, trusted_proxies=["127.0.0.1"])) as c:
        doc = c.get("/api/limits").json()["admission"]
        api = c.get("/api/openapi.json").json()
    for name in WEB_ADMISSION._fields:
        assert doc[name] == getattr(WEB_ADMISSION, name), name
    assert doc["trusted_proxies"] == ["127.0.0.1/32"] and doc["generate_at_once"] == limits.WEB_MAX_GENERATING
    assert doc["longest_wait"] == WEB_ADMISSION.queue_wait + WEB.default_time_limit + limits.TIME_MARGIN
    text = api["info"]["description"]
    for promise in (f"{WEB_ADMISSION.client_at_once} requests in flight", f"{WEB_ADMISSION.client_heavy_per_minute} a minute",
                    "429 with `Retry-After`", "503 with `Retry-After`", f"at most {WEB_ADMISSION.queue_wait:g} s",
                    f"within {WEB_ADMISSION.header_timeout:g} s", "never answered 400",
                    f"the whole server stays under {WEB_ADMISSION.server_memory // 2 ** 20} MiB"):
        assert promise in text, promise
    for path, item in api["paths"].items():
        if "post" in item:
            assert {"429", "503"} <= set(item["post"]["responses"]), path


def test_the_server_process_makes_no_pool_current(warm):
    """The app's work runs on its lanes' pools; it makes no pool current for library calls (a
    one-off worker would then fork this threaded process)."""
    from hashikit.run import workers

    assert workers.current() is None
    assert warm.post("/api/solve", json={"puzzle": SQUARE}).json()["status"] == "solved"


def test_the_readme_states_the_admission_from_limits_py():
    from conftest import ROOT

    readme = " ".join((ROOT / "README.md").read_text().split())
    a, solve = WEB_ADMISSION, WEB.default_time_limit
    for promise in (
            f"pictures up to {a.picture_pixels / 1e6:g} megapixels",
            f"a board of at most {a.light_cells} cells and {a.light_islands} islands, in a body of at most "
            f"{a.light_bytes:,} bytes", f"a body declared larger than {a.light_bytes:,} bytes",
            f"on {a.light_at_once} workers of its own", f"on {a.heavy_at_once} workers that run at a lower CPU priority",
            f"generations on {limits.WEB_MAX_GENERATING} of their own",
            f"waits for its lane at most {a.queue_wait:g} s ({a.queue_length} at most wait)",
            f"a client waits at most {a.longest_wait(solve):g} s for a solve",
            f"may have {a.client_at_once} requests in flight", f"and {a.client_heavy_at_once} heavy request",
            f"at once and {a.client_heavy_per_minute} a minute",
            f"may map {a.worker_memory // 2 ** 30} GiB of memory",
            f"The whole server (its process and every worker, shared pages counted once) stays under "
            f"{a.server_memory / 2 ** 30:g} GiB", f"runs only on the {a.heavy_at_once} heavy workers",
            f"a picture is at most {a.picture_pixels / 1e6:g} megapixels",
            f"headers must arrive within {a.header_timeout:g} s and its body within {a.body_timeout:g} s",
            f"an idle connection is closed after {a.keep_alive:g} s",
            f"may hold {a.client_connections} connections open", f"and the server {a.connections} (then 503)"):
        assert promise in readme, promise


def test_serve_runs_uvicorn_with_the_admissions_connection_limits():
    from hashikit.web.serving import config

    cfg = config(create_app(pool_size=0), WEB_ADMISSION, (), host="127.0.0.1", port=0)
    assert (cfg.limit_concurrency, cfg.timeout_keep_alive, cfg.proxy_headers) == (
        WEB_ADMISSION.connections, WEB_ADMISSION.keep_alive, False)
    assert cfg.http.__name__ == "TimedH11Protocol"
