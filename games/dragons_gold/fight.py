"""The fight: turns, playing hunters under dragons, slaying, and magic items used on a turn.

Actions of the seat whose turn it is (``current``; declared in ``games.dragons_gold.actions``):

- ``{"type": "play", "hunter": "wizard"|"thief"|"knight3"|"knight4", "dragon": i}``: a face-up
  hunter of mine goes under the ``i``-th dragon of the row (on top of its stack). Advanced, with
  ``"card": c``: a Sword from my hand adds 2 to that hunter's attack. When the stack's attack
  reaches the dragon's strength (≥), the dragon is slain (``settle.slay``); otherwise the next
  seat plays.
- Advanced, ``{"type": "use", "card": c, ...}``: a magic item before my hunter (the turn goes
  on): Crystal ball ``"seat": s`` (look behind that screen), Wind ``"dragons": [i, j]`` (swap two
  dragons with their treasure, the stacks stay), Horn ``"hunter": h`` (take one of my hunters
  back face up), Map (draw a token from the bag). The Amulet works by itself.

A turn begins (``begin_turn``; also the fight's ``begin`` when the game comes back to it, with
``state.current`` the seat due to play) with the rules' checks: a seat whose hunters in front of it
are all face down turns them face up; a seat with no hunter in front of it is skipped.
**Decision:** when no seat has a hunter in front of it (every hunter lies under a living dragon,
possible only with 3 players, whose 30 attack can be spread under four strong dragons without
reaching any strength), the dragon with the most attack under it (ties: the leftmost) is
overwhelmed: it is slain as if its strength were reached, and the owner of its top hunter counts
as the slaying player.
"""

from __future__ import annotations

from errors import IllegalAction, InvalidInput
from games.base import Action, Event
from games.dragons_gold import table
from games.dragons_gold.actions import USE_FIELD, Play, Use
from games.dragons_gold.data import ATTACK, DRAGONS, HUNTERS, ITEM_OF_CARD, SWORD_BONUS
from games.dragons_gold.settle import slay
from games.dragons_gold.table import FIGHT, DragonsGoldState

State = DragonsGoldState


def begin(state: State, events: list[Event]) -> None:
    """The fight's ``begin``: the turn of the seat due (``state.current``), or of the first seat
    after it that can play."""
    assert state.current is not None
    begin_turn(state, state.current, events)


def begin_turn(state: State, seat: int, events: list[Event]) -> None:
    """Give the turn to ``seat`` or the first seat after it that can play (turning all-face-down
    hunters face up, skipping seats with none in front); overwhelm a dragon if nobody can."""
    s = FIGHT.start(state, seat % state.seats)
    for _ in range(state.seats):
        assert s is not None
        hunters = state.hunters[s]
        if any(where == "up" for where in hunters.values()):
            return
        down = [h for h, where in hunters.items() if where == "down"]
        if down:
            for h in down:
                hunters[h] = "up"
            events.append({"type": "hunters_turned_up", "seat": s})
            return
        events.append({"type": "turn_skipped", "seat": s})
        s = FIGHT.pass_turn(state)
    _overwhelm(state, events)


def _overwhelm(state: State, events: list[Event]) -> None:
    row = state.row
    index = max(range(len(row)), key=lambda i: (table.attack(row[i]), -i))
    slayer = row[index].stack[-1]["seat"]
    state.stats["overwhelmed"] += 1
    events.append({"type": "dragon_overwhelmed", "dragon": index, "seat": slayer})
    slay(state, index, slayer, events)


def _hand_card(state: State, seat: int, card: int, item: str | None) -> int:
    """``card``, which must be in ``seat``'s hand (and of kind ``item`` when given)."""
    if card not in state.hands[seat]:
        raise IllegalAction(
            f"card {card} is not in your hand",
            "action.card",
            reason="dg_card_not_in_hand",
            params={"card": card},
        )
    if item is not None and ITEM_OF_CARD[card] != item:
        raise IllegalAction(
            f"card {card} is a {ITEM_OF_CARD[card]}, not a {item}",
            "action.card",
            reason="dg_wrong_item",
            params={"card": card, "item": item},
        )
    return card


def _dragon_index(state: State, value: int, field: str) -> int:
    if not value < len(state.row):
        raise InvalidInput(
            f"dragon must be a position 0-{len(state.row) - 1} in the row, got {value!r}",
            field,
            reason="dg_no_such_dragon",
            params={"dragons": len(state.row)},
        )
    return value


def play_hunter(state: State, seat: int, action: Play, events: list[Event]) -> None:
    """``{"type": "play", "hunter", "dragon"[, "card"]}`` (checked before anything changes)."""
    hunter = action.hunter
    if state.hunters[seat][hunter] != "up":
        raise IllegalAction(
            f"your {hunter} is not face up in front of you",
            "action.hunter",
            reason="dg_hunter_not_ready",
            params={"hunter": hunter},
        )
    index = _dragon_index(state, action.dragon, "action.dragon")
    card = None if action.card is None else _hand_card(state, seat, action.card, "sword")
    # validated: mutate
    bonus = 0
    if card is not None:
        state.hands[seat].remove(card)
        state.discard.append(card)
        bonus = SWORD_BONUS
        events.append({"type": "item_used", "seat": seat, "card": table.card_json(card)})
    dragon = state.row[index]
    state.hunters[seat][hunter] = "played"
    dragon.stack.append(
        {"seat": seat, "hunter": hunter, "attack": ATTACK[hunter] + bonus, "sword": bonus > 0}
    )
    events.append(
        {
            "type": "hunter_played",
            "seat": seat,
            "hunter": hunter,
            "dragon": index,
            "attack": table.attack(dragon),
        }
    )
    if table.attack(dragon) >= table.strength(dragon):
        slay(state, index, seat, events)
    else:
        begin_turn(state, seat + 1, events)


def _target(state: State, seat: int, action: Use, item: str) -> int | list[int] | str | None:
    """What the item ``item`` works on (the field it takes), every rule checked."""
    if item == "crystal_ball":
        target = action.seat
        if target is None or not target < state.seats or target == seat:
            raise InvalidInput(
                f"seat must be another player's seat, got {target!r}",
                "action.seat",
                reason="dg_bad_target_seat",
            )
        return target
    if item == "wind":
        if action.dragons is None:
            raise InvalidInput(
                "dragons must be two positions in the row", "action.dragons", reason="dg_bad_pair"
            )
        i = _dragon_index(state, action.dragons[0], "action.dragons[0]")
        j = _dragon_index(state, action.dragons[1], "action.dragons[1]")
        if i == j:
            raise InvalidInput(
                "dragons must be two different positions", "action.dragons", reason="dg_bad_pair"
            )
        row = state.row
        if (
            table.attack(row[i]) >= DRAGONS[row[j].id]["strength"]
            or table.attack(row[j]) >= DRAGONS[row[i].id]["strength"]
        ):
            raise IllegalAction(
                "the swap would slay a dragon at once",
                "action.dragons",
                reason="dg_swap_would_slay",
            )
        return [i, j]
    if item == "horn":
        hunter = action.hunter
        if hunter is None or state.hunters[seat][hunter] != "played":
            raise IllegalAction(
                f"your {hunter!r} is not under a dragon",
                "action.hunter",
                reason="dg_hunter_not_played",
                params={"hunter": str(hunter)},
            )
        return hunter
    if not state.bag:  # the map
        raise IllegalAction("the bag is empty", "action.card", reason="dg_bag_empty")
    return None


def use_item(state: State, seat: int, action: Use, events: list[Event]) -> None:
    """``{"type": "use", "card", ...}``: a magic item on my turn (the turn goes on)."""
    if not state.options["advanced"]:
        raise IllegalAction(
            "magic items are part of the advanced rules", "action.type", reason="dg_not_advanced"
        )
    card = _hand_card(state, seat, action.card, None)
    item = ITEM_OF_CARD[card]
    if item not in USE_FIELD:
        raise IllegalAction(
            f"a {item} is not used this way",
            "action.card",
            reason="dg_item_not_usable",
            params={"item": item},
        )
    target = _target(state, seat, action, item)
    # validated: mutate
    state.hands[seat].remove(card)
    state.discard.append(card)
    used: Event = {"type": "item_used", "seat": seat, "card": table.card_json(card)}
    events.append(used)
    if isinstance(target, int):  # the crystal ball
        table.note(
            state, seat, {"type": "looked", "seat": target, "hoard": dict(state.hoards[target])}
        )
        used["seat_looked_at"] = target
    elif isinstance(target, list):  # the wind
        i, j = target
        a, b = state.row[i], state.row[j]
        a.id, b.id = b.id, a.id
        a.treasure, b.treasure = b.treasure, a.treasure
        used["dragons"] = [i, j]
    elif isinstance(target, str):  # the horn
        for dragon in state.row:
            dragon.stack = [
                e for e in dragon.stack if not (e["seat"] == seat and e["hunter"] == target)
            ]
        state.hunters[seat][target] = "up"
        used["hunter"] = target
    else:  # the map
        token = state.bag.pop()
        state.hoards[seat][token] += 1
        table.note(state, seat, {"type": "map_drew", "colour": token})


def legal(state: State, seat: int) -> list[Action]:
    """Every play (hunter × dragon, with each Sword in hand) and every item use."""
    up = [h for h in HUNTERS if state.hunters[seat][h] == "up"]
    row = state.row
    hand = state.hands[seat]
    swords = [c for c in hand if ITEM_OF_CARD[c] == "sword"]
    out: list[Action] = []
    for h in up:
        for i in range(len(row)):
            out.append({"type": "play", "hunter": h, "dragon": i})
            out.extend({"type": "play", "hunter": h, "dragon": i, "card": c} for c in swords)
    for c in hand:
        item = ITEM_OF_CARD[c]
        if item == "crystal_ball":
            out.extend(
                {"type": "use", "card": c, "seat": s} for s in range(state.seats) if s != seat
            )
        elif item == "wind":
            for i in range(len(row)):
                for j in range(i + 1, len(row)):
                    if table.attack(row[i]) < table.strength(row[j]) and table.attack(
                        row[j]
                    ) < table.strength(row[i]):
                        out.append({"type": "use", "card": c, "dragons": [i, j]})
        elif item == "horn":
            out.extend(
                {"type": "use", "card": c, "hunter": h}
                for h in HUNTERS
                if state.hunters[seat][h] == "played"
            )
        elif item == "map" and state.bag:
            out.append({"type": "use", "card": c})
    return out
