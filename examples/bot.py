#!/usr/bin/env python3
"""A scopa bot from docs/protocol.md, rules.md and fairness.md alone (websockets and the standard library):
``python3 examples/bot.py ws://127.0.0.1:8765 --name Bip``. It quick-matches two-player Scopa as a program,
plays a legal card each turn, deals on as host, then checks the shuffle itself: it ends with "Shuffle
checked, fair." (exit code 0) or what failed (1). Your own engine goes in ``choose``."""
import argparse
import asyncio
import hashlib
import hmac
import itertools
import json
import secrets
import sys

import websockets

RANKS = "A234567JQK"
CARDS = [rank + suit for rank in RANKS for suit in "DHSC"]  # card number n (0 to 39) is CARDS[n], "7D" is 27
RULES = {"players": 2, "variant": "scopa", "target": 11}  # every option left out is off (kings redeal: on)
PLAYERS, HAND, TABLE, FAIR = 2, 3, 4, "Shuffle checked, fair."


def value(card: str) -> int:
    return RANKS.index(card[0]) + 1  # ace 1, two to seven, jack 8, queen 9, king 10


def legal_moves(hand: list[str], table: list[str]) -> list[tuple[str, list[str]]]:
    """docs/rules.md: an equal card before any sum; a card that can take must; else it stays."""
    moves = []
    for card in hand:
        equal = [[t] for t in table if value(t) == value(card)]
        sums = [list(g) for size in range(2, len(table) + 1) for g in itertools.combinations(table, size)
                if sum(map(value, g)) == value(card)]
        moves += [(card, group) for group in (equal or sums or [[]])]
    return moves


def choose(moves: list[tuple[str, list[str]]]) -> tuple[str, list[str]]:  # the settebello, most cards, low card
    return max(moves, key=lambda m: ("7D" in m[1] or (m[0] == "7D" and bool(m[1])), len(m[1]), -value(m[0])))


def stream(seed: bytes, label: bytes, n: int):  # docs/fairness.md, Shuffle 2
    for counter in itertools.count():
        yield from hmac.digest(seed, label + b"\0" + n.to_bytes(4, "big") + counter.to_bytes(4, "big"), "sha256")


def below(source, n: int) -> int:
    while (drawn := next(source) & ((1 << n.bit_length()) - 1)) > n:
        pass
    return drawn


def deck(seed: bytes, deal: int, redeals: int) -> list[int]:  # a redeal shuffles it again, reading on
    cards, source = list(range(40)), stream(seed, b"deal", deal)
    for _ in range(redeals + 1):
        for i in range(39, 0, -1):
            j = below(source, i)
            cards[i], cards[j] = cards[j], cards[i]
    return cards


def check(record: dict, commitment: str, share: str, seat: int, seen: dict) -> str:
    """docs/fairness.md, What the client checks, in its order."""
    if not record.get("fairness"):
        return "Shuffle not checked. The server sent no seed to check."
    server_seed = bytes.fromhex(record["fairness"]["server_seed"])
    if hashlib.sha256(server_seed).hexdigest() != commitment:
        return "Shuffle check failed. The seed the server showed at the end is not the one it promised at the start."
    shares = sorted((c["seat"], bytes.fromhex(c["value"])) for c in record["fairness"]["contributions"])
    if (seat, bytes.fromhex(share)) not in shares:
        return "Shuffle check failed. Your share of the seed was left out."
    seed = hashlib.sha256(b"scopa match seed\0" + server_seed + b"".join(bytes([s]) + v for s, v in shares)).digest()
    if record["seed"] != seed.hex():
        return "Shuffle check failed. The match seed is not made of the server's seed and the players' shares."
    for deal, (dealer, redeals, table, hands) in seen.items():
        cards, k = deck(seed, deal, redeals), ((dealer - 1) - seat) % PLAYERS  # the dealer's right first
        dealt = {r: sorted(CARDS[c] for c in cards[TABLE + (r - 1) * PLAYERS * HAND + k * HAND:][:HAND]) for r in hands}
        first = deal > 1 or dealer == below(stream(seed, b"first dealer", 0), PLAYERS - 1)
        if sorted(CARDS[c] for c in cards[:TABLE]) != table or dealt != hands or not first:
            return "Shuffle check failed. The cards dealt are not the ones the seed deals."
    return FAIR


def note(event: dict, view: dict, seen: dict) -> None:  # each deal's dealer, redeals, table, own hands
    if event["kind"] == "deal_started":
        seen[event["deal_number"]] = (event["dealer"], event["redeals"], [], {})
    elif event["kind"] == "cards_dealt":  # the view is the position after the whole change: the hand dealt
        seen[view["deal_number"]][2].extend(sorted(event["table"] or []))
        seen[view["deal_number"]][3][event["round"]] = sorted(view["hand"])
    elif event["kind"] == "deal_scored":
        print(f"Deal {event['deal_number']} over, match score {event['match_scores']}.")


def decide(update: dict, seat: int, host: int, request_id: int) -> dict | None:
    """A move on this seat's turn, the next deal from the host, the record once the match is over."""
    view, expected = update["view"], update["number"]
    if view["phase"] == "playing" and view["to_move"] == seat:
        card, capture = choose(legal_moves(view["hand"], view["table"]))
        return {"type": "move", "id": request_id, "card": card, "capture": capture, "expected": expected}
    if view["phase"] == "deal_over" and host == seat:
        return {"type": "next_deal", "id": request_id, "expected": expected}
    return {"type": "record", "id": request_id} if view["phase"] == "match_over" else None


async def play(server: str, name: str, level: str) -> str:
    async with websockets.connect(server) as ws:
        await ws.send(json.dumps({"type": "quick", "version": 2, "name": name, "rules": RULES, "level": level,
                                  "program": True}))
        share, ids, seen, welcome, sent, latest = secrets.token_hex(32), itertools.count(1), {}, {}, None, None
        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "welcome":
                welcome = message  # then the share, before anything else; "contributed" acknowledges it
                await ws.send(json.dumps({"type": "features", "names": ["contributed"]}))
                await ws.send(json.dumps({"type": "contribute", "value": share}))
            elif kind == "error" and message["code"] != "unknown_type":  # unknown_type: a server without features
                return f"Refused: {message['code']} {message['values']}"
            elif kind == "contributed" and message["value"] != share:
                return "Refused: the server kept another share for this seat."
            elif kind == "info":
                welcome["info"] = message["info"]
            elif kind == "refused" and message["kind"] != "stale":
                return f"Refused: {message['kind']} {message['reason']}"
            elif kind in ("accepted", "refused"):  # refused as stale: the table moved on, wait for how
                latest, sent = None if kind == "refused" and latest["number"] <= sent["expected"] else latest, None
            elif kind == "match_record":
                return check(message["record"], welcome["commitment"], share, welcome["seat"], seen)
            elif kind == "update" and message["view"] is not None:
                latest = message
                note(message["event"], message["view"], seen)
            if sent is None and latest is not None:
                sent = decide(latest, welcome["seat"], welcome["info"]["host"], next(ids))
                if sent is not None:
                    await ws.send(json.dumps(sent))
        return "The server closed the connection before the match was over."


def main() -> int:
    parser = argparse.ArgumentParser(description="A scopa bot: a quick match, played out, its shuffle checked.")
    parser.add_argument("server", help="the room server, ws://HOST:PORT")
    parser.add_argument("--name", default="Bip", help="the bot's name at the table")
    parser.add_argument("--level", default="easy", help="the computers' level if nobody comes")
    args = parser.parse_args()
    print(line := asyncio.run(play(args.server, args.name, args.level)))
    return 0 if line == FAIR else 1


if __name__ == "__main__":
    sys.exit(main())
