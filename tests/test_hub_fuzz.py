"""A bounded fuzz of the hub's inputs on loopback: random and hostile MQTT payloads from a table's credentials
and random HTTP requests, then the hub must still serve correct pages (an honest table's game equal to the
engine's replay, the overview, the live feed). ``PARTIAR_FUZZ`` sets the number of messages of each kind
(default 300: a few seconds; a longer run: ``PARTIAR_FUZZ=2000``)."""

from __future__ import annotations

import json
import os
import random
import socket
from typing import Any

import paho.mqtt.client as mqtt
from mosquitto_fixture import TABLES, SseClient, broker, finished_games, request, start_hub  # noqa: F401

from device.publish import TablePublisher
from engine.game import Game
from tablelink import topics

COUNT = int(os.environ.get("PARTIAR_FUZZ", "300"))
HONEST, FUZZER = "t53", "t57"


def random_value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(9 if depth < 4 else 6)
    if kind == 0:
        return rng.choice([0, -1, 1, 2**31, -(2**63), 10**30, 3.5, float("1e308")])
    if kind == 1:
        return rng.choice(["", "x" * rng.randrange(1, 3000), "ěščřžýáíé", "\u0000", "null", "<script>"])
    if kind == 2:
        return rng.choice([None, True, False])
    if kind == 3:
        return "[" * rng.randrange(1, 50)
    if kind == 4:
        return rng.choice(["start", "play", "pass", "ruling", "forfeit", "rack", "nope"])
    if kind == 5:
        return rng.random()
    if kind == 6:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["type", "at", "players", "placements", "game", "scores", "clock", "state", "x"]):
            random_value(rng, depth + 1) for _ in range(rng.randrange(4))}  # fmt: skip


def mutate(rng: random.Random, payload: dict[str, Any]) -> bytes:
    """A valid-looking payload with one part replaced, or raw garbage."""
    choice = rng.randrange(6)
    if choice == 0:
        return rng.randbytes(rng.randrange(1, 2000))
    if choice == 1:
        text = json.dumps(payload)
        return text[: rng.randrange(len(text))].encode()
    if choice == 2:
        depth = rng.choice([17, 100, 5000, 30000])
        return b"[" * depth + b"]" * depth
    data = json.loads(json.dumps(payload))
    target = data
    for _ in range(rng.randrange(3)):
        inner = [k for k, v in target.items() if isinstance(v, dict)]
        if not inner:
            break
        target = target[rng.choice(inner)]
    target[rng.choice([*target.keys(), "extra"])] = random_value(rng)
    return json.dumps(data, allow_nan=True).encode()


def fuzz_mqtt(port: int, rng: random.Random) -> None:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="fuzzer")
    client.username_pw_set(FUZZER, TABLES[FUZZER])
    client.connect("127.0.0.1", port)
    client.loop_start()
    template = {
        "event": {"v": 1, "table": FUZZER, "game": "g", "seq": 1, "event": {"type": "pass", "at": 1.0}},
        "state": {"v": 1, "table": FUZZER, "game": "g", "seq": 1,
                  "state": {"name": "x", "players": ["a", "b"], "clock": {"state": "running", "budgets": [1, 2]},
                            "game": {"scores": [1, 2]}}},
        "status": {"v": 1, "table": FUZZER, "online": True},
    }  # fmt: skip
    start = {"v": 1, "table": FUZZER, "game": "g", "seq": 0, "event": {"type": "start", "at": 0.0, "players": ["a", "b"]}}
    client.publish(topics.table_topic(FUZZER, "event"), json.dumps(start), qos=1)
    last = None
    for _ in range(COUNT):
        kind = rng.choice(list(template))
        topic = topics.table_topic(rng.choice([FUZZER, FUZZER, HONEST]), kind)  # the ACL drops the other table's
        last = client.publish(topic, mutate(rng, template[kind]), qos=1)
    assert last is not None
    last.wait_for_publish(30)
    client.loop_stop()
    client.disconnect()


def fuzz_http(port: int, rng: random.Random) -> list[int]:
    """Random requests on raw sockets; returns the statuses answered (a closed connection answers nothing)."""
    paths = ["/", "/api/overview", "/api/table/t53", "/api/table/%00", "/api/login", "/api/round", "/api/players",
             "/events/table/" + "x" * 300, "/export/round/1.zip", "/export/round/99999999.csv", "/static/../db",
             "/api/standings?round=" + "9" * 50, "/table/<b>", "/" + "a/" * 500]  # fmt: skip
    statuses = []
    for _ in range(COUNT):
        method = rng.choice(["GET", "POST", "POST", "PUT", "DELETE", "BREW"])
        body = mutate(rng, {"user": "Hlavní", "password": "x", "command": "start_round", "round": 1})
        headers = [f"Host: 127.0.0.1:{port}", "Connection: close"]
        length = rng.choice([str(len(body)), str(len(body)), "-1", "abc", "99999999999", "0"])
        headers.append(f"Content-Length: {length}")
        if rng.random() < 0.3:
            headers.append(rng.choice(["Cookie: partiar_session=" + "x" * rng.randrange(1, 5000),
                                       "Origin: http://evil.example", "X-CSRF-Token: \u00ff", "Transfer-Encoding: chunked",
                                       "Content-Type: text/plain"]))  # fmt: skip
        path = rng.choice(paths)
        if path.startswith("/events"):
            method = "POST"  # a GET would hold the live feed open
        head = f"{method} {path} HTTP/1.1\r\n" + "\r\n".join(headers) + "\r\n\r\n"
        with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
            try:
                s.sendall(head.encode("utf-8", "replace") + (body if length.isdigit() else b""))
                answer = s.recv(200)
            except (ConnectionResetError, BrokenPipeError):
                continue
        if answer.startswith(b"HTTP/1.1 "):
            statuses.append(int(answer[9:12]))
    return statuses


def test_the_hub_survives_random_and_hostile_input(broker, tmp_path) -> None:  # noqa: F811
    rng = random.Random(20261123)
    hub = start_hub(broker.url)
    honest = TablePublisher(HONEST, broker.url, username=HONEST, password=TABLES[HONEST], queue_dir=tmp_path / "q")
    honest.start()
    game = finished_games(1, seed=41)[0]
    try:
        for seq, event in enumerate(game[:20]):
            honest.publish_event(seq, event.to_json())
        fuzz_mqtt(broker.port, rng)
        statuses = fuzz_http(hub.port, rng)
        assert statuses and all(s < 500 for s in statuses), sorted(set(statuses))
        sse = SseClient(hub.port, f"/events/table/{HONEST}").start()
        for seq in range(20, len(game)):
            honest.publish_event(seq, game[seq].to_json())
        assert sse.wait_for(lambda got: any(n == "table" and d["seq"] == len(game) - 1 for n, d, _ in got), 30)
        sse.close()
        status, _, body = request(hub.port, "GET", f"/api/table/{HONEST}")
        assert status == 200
        assert json.loads(body)["game"] == json.loads(json.dumps(Game.replay(game).to_dict()))
        status, _, body = request(hub.port, "GET", "/api/overview")
        overview = json.loads(body)
        assert status == 200 and HONEST in [t["table"] for t in overview["tables"]]
        assert hub.store.rejected > COUNT // 4  # most of the fuzz was refused, and counted
        for page in ("/", f"/table/{HONEST}", "/standings", "/status", "/api/standings", "/api/status"):
            assert request(hub.port, "GET", page)[0] == 200, page
    finally:
        honest.stop()
        hub.stop()
