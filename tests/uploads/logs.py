"""Game logs for the upload tests, made with the bundled bots (no sample files needed)."""

from __future__ import annotations

import json
from typing import Any

from replay.games.floating_bridge.bots import play_game

XSS_NAME = "<script>alert(1)</script>"


def clean_log(seed: int = 1, **kwargs: Any) -> dict[str, Any]:
    return play_game(seed=seed, **kwargs).to_json_dict()


def as_bytes(log: dict[str, Any]) -> bytes:
    return json.dumps(log, ensure_ascii=False).encode()


def revoke_log(seed: int = 2) -> dict[str, Any]:
    """A self-play game changed so that one seat fails to follow suit while able to (a revoke)."""
    for s in range(seed, seed + 50):
        log = play_game(seed=s, announce_tricks=False).to_json_dict()
        plays = [(i, e) for i, e in enumerate(log["events"]) if e["type"] == "play"]
        for t in range(0, len(plays) - 4, 4):
            trick = plays[t:t + 4]
            lead_suit = trick[0][1]["card"][0]
            for i, event in trick[1:]:
                if event["card"][0] != lead_suit:
                    continue
                seat = event["seat"]
                later = [(j, e) for j, e in plays[t + 4:] if e["seat"] == seat and e["card"][0] != lead_suit]
                if not later:
                    continue
                j, other = later[0]
                log["events"][i] = {**event, "card": other["card"]}
                log["events"][j] = {**other, "card": event["card"]}
                log["game_id"] = f"revoke-{s}"
                return log
    raise AssertionError("no game to turn into a revoke")


def wrong_winner_log(seed: int = 3) -> dict[str, Any]:
    """A self-play game whose bot announces the wrong winner of the first trick."""
    log = play_game(seed=seed).to_json_dict()
    for event in log["events"]:
        if event["type"] == "trick":
            event["winner"] = "NESW"[("NESW".index(event["winner"]) + 1) % 4]
            log["game_id"] = f"wrong-winner-{seed}"
            return log
    raise AssertionError("no trick announced")


def xss_log(seed: int = 4) -> dict[str, Any]:
    log = play_game(seed=seed, chat=True).to_json_dict()
    log["players"]["N"]["name"] = XSS_NAME
    log["players"]["N"]["bot"] = None
    log["game_id"] = XSS_NAME
    log["events"].append({"type": "chat", "seat": "E", "text": XSS_NAME + "<img src=x onerror=alert(2)>"})
    return log


def truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]
