"""Encounter's card pool: cards.csv read and checked into the integer table."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.kit.cards import Cards, CardTable, Column

COLUMNS = (
    "id", "name", "kind", "nature", "unique", "race", "requires", "cost", "step", "dex",
    "int", "str", "tough", "terrain", "quest_cost", "quest_points", "loot_points", "obj1",
    "oarg1", "obj2", "oarg2", "ability1", "arg1", "ability2", "arg2", "ability_cost", "stays",
    "text",
)  # fmt: skip
INT_FIELDS = {
    "unique": K.C_UNIQUE, "cost": K.C_COST, "dex": K.C_DEX, "int": K.C_INT, "str": K.C_STR,
    "tough": K.C_TOUGH, "terrain": K.C_TERRAIN, "quest_cost": K.C_QCOST,
    "quest_points": K.C_QPOINTS, "loot_points": K.C_LPOINTS, "oarg1": K.C_OARG1,
    "oarg2": K.C_OARG2, "arg1": K.C_ARG1, "arg2": K.C_ARG2, "ability_cost": K.C_ABCOST,
}  # fmt: skip
NATURES_OF = {"npc": ("party", "support", "strike"),
              "action": ("bulwark", "character", "instant", "strike")}
MAX_VALUE = 99
def read_nature(cell: str, row: dict) -> int:
    """A nature word: "strike" on an action is a strike action; a word the kind does not
    have stays 0 or another kind's code (-1: none), for the card check to name."""
    kind = row["kind"]
    if kind == "action" and cell == "strike":
        return K.STRIKE_ACTION
    if cell in K.NATURES:
        return K.NATURES.index(cell)
    return -1 if cell and kind not in ("npc", "action") else 0


# Natures each kind may have, as codes (a kind not listed has none).
NATURE_CODES = {K.NPC: (K.PARTY, K.SUPPORT, K.STRIKE),
                K.ACTION: (K.BULWARK, K.CHARACTER, K.INSTANT, K.STRIKE_ACTION)}
CODE_WORDS = ((K.C_KIND, K.KINDS, "kind"), (K.C_RACE, K.RACES, "race"),
              (K.C_REQUIRES, K.RACES, "race"), (K.C_STEP, K.STEPS, "step"),
              (K.C_OBJ1, K.OBJECTIVES, "objective"), (K.C_OBJ2, K.OBJECTIVES, "objective"),
              (K.C_AB1, K.KEYWORDS, "keyword"), (K.C_AB2, K.KEYWORDS, "keyword"))


def check_card(r) -> list[str]:
    """Every requirement of the rules model on one row of the integer card table: codes and
    values in range, the natures of its kind, objective and keyword arguments, and the
    per-kind rules. The loader applies it to each line of cards.csv, `validate` to a table
    edited in memory."""
    out: list[str] = []
    bad = out.append

    for col, words, what in CODE_WORDS:
        if not 0 <= r[col] < len(words):
            bad(f"{what} code {r[col]} is not one of 0 .. {len(words) - 1}")
            return out
    for f, col in INT_FIELDS.items():
        if abs(r[col]) > MAX_VALUE:
            bad(f"{f} out of range")
    kind, nat = r[K.C_KIND], r[K.C_NATURE]
    allowed = NATURE_CODES.get(kind, ())
    if allowed and nat not in allowed:
        bad(f"a {K.KINDS[kind]} needs a nature, one of {', '.join(NATURES_OF[K.KINDS[kind]])}")
    elif not allowed and nat:
        bad(f"a {K.KINDS[kind]} has no nature")
    for oc, ac in ((K.C_OBJ1, K.C_OARG1), (K.C_OBJ2, K.C_OARG2)):
        if r[oc] and r[ac] < 0:
            bad(f"objective {K.OBJECTIVES[r[oc]]} needs an argument >= 0")
        if r[oc] and kind != K.QUEST:
            bad("only quests have objectives")
    for ac in (K.C_AB1, K.C_AB2):
        if r[ac] and r[ac + 1] <= 0:
            bad(f"keyword {K.KEYWORDS[r[ac]]} needs an argument >= 1")
    if kind == K.PC and (r[K.C_RACE] == 0 or r[K.C_TOUGH] < 1):
        bad("a PC needs a race and toughness >= 1")
    if kind != K.PC and r[K.C_RACE]:
        bad("only a PC has a race (use requires)")
    if kind == K.NPC and nat in (K.PARTY, K.STRIKE) and r[K.C_TOUGH] < 1:
        bad("a party or strike NPC needs toughness >= 1")
    if kind == K.NPC and nat == K.SUPPORT and r[K.C_TOUGH] != 0:
        bad("a support NPC has no toughness")
    if kind == K.LOCATION and not 1 <= r[K.C_TERRAIN] <= 4:
        bad("a location needs terrain 1 (wild), 2 (urban), 3 (space) or 4 (ancient)")
    if kind != K.LOCATION and r[K.C_TERRAIN]:
        bad("only a location has a terrain")
    if kind == K.QUEST and (r[K.C_OBJ1] == 0 or r[K.C_QPOINTS] < 1 or r[K.C_QCOST] < 0
                            or r[K.C_LPOINTS] < 0):
        bad("a quest needs obj1, quest_points >= 1, quest_cost and loot_points >= 0")
    if kind == K.QUEST and r[K.C_OBJ1] == K.O_PLACE and not 1 <= r[K.C_OARG1] <= 4:
        bad("PLACE needs a terrain 1-4")
    if kind == K.QUEST and r[K.C_OBJ2] == K.O_PLACE and not 1 <= r[K.C_OARG2] <= 4:
        bad("PLACE needs a terrain 1-4")
    if kind != K.QUEST and (r[K.C_QCOST] or r[K.C_QPOINTS] or r[K.C_LPOINTS]):
        bad("only a quest has quest_cost, quest_points, loot_points")
    if r[K.C_COST] < 0:
        bad("cost must be >= 0")
    if kind == K.LOCATION and r[K.C_COST]:
        bad("locations have no cost")
    if r[K.C_ABCOST] < 0:
        bad("ability_cost must be >= 0")
    if r[K.C_ABCOST] and not has_ability(r):
        bad("only a card with an in-play ability (a keyword with a step on a card that stays "
            "in play) has an ability_cost")
    if kind == K.BLANK and (r[K.C_AB1] or r[K.C_AB2] or any(
            r[c] for c in (K.C_DEX, K.C_INT, K.C_STR, K.C_TOUGH, K.C_COST))):
        bad("a blank does nothing")
    for ac in (K.C_AB1, K.C_AB2):
        kw = r[ac]
        if kw in K.STEP_KEYWORDS and r[K.C_STEP] == 0 and kind != K.QUEST:
            bad(f"keyword {K.KEYWORDS[kw]} needs a step")
        elif kw == K.MIGHT and r[K.C_STEP] != K.S_COMBAT:
            bad("keyword Might lasts its combat: its step is combat")
        if kind == K.ACTION and nat == K.INSTANT and kw in K.STATIC_KEYWORDS:
            bad(f"an instant cannot carry the static keyword {K.KEYWORDS[kw]}")
        if kind == K.QUEST and kw not in (0, K.HEAL, K.DRAW):
            bad("a quest's reward keyword is Heal or Draw")
        if kw in (K.HEX, K.AMBUSH) and nat != K.STRIKE_ACTION:
            bad(f"{K.KEYWORDS[kw]} is a strike action's keyword")
        if kw == K.CAPTURE and not (kind == K.NPC and nat == K.STRIKE):
            bad("Capture is a strike NPC's keyword (it captures the PC it beats)")
    if kind == K.ACTION and nat in (K.INSTANT, K.STRIKE_ACTION) and r[K.C_AB1] == 0 and not r[
            K.C_STAYS]:
        bad("an instant or strike action needs a keyword")
    if r[K.C_ATTACH] and not (kind == K.ACTION and nat == K.CHARACTER):
        bad("only a character action names the characters it attaches to (attach = pc or "
            "party)")
    return out + stays_problems(r)


def stays_problems(r) -> list[str]:
    """A strike card that stays: only a strike action, placed in its owner's bulwark, where
    its strength, intelligence and dexterity reach its owner's party characters and its
    Budget and Sneak count, or on a character of the active player's, whose strength,
    intelligence and dexterity it changes (no keyword, not unique: it is in another player's
    play); a strike action with such a lasting effect needs the placement."""
    strike = r[K.C_KIND] == K.ACTION and r[K.C_NATURE] == K.STRIKE_ACTION
    lasting = any(r[c] for c in (K.C_DEX, K.C_INT, K.C_STR, K.C_TOUGH)) or any(
        r[c] in K.STATIC_KEYWORDS for c in (K.C_AB1, K.C_AB2))
    if r[K.C_STAYS] and not strike:
        return ["only a strike action stays in play (stays = bulwark or character)"]
    if not strike:
        return []
    if not r[K.C_STAYS]:
        return ["a strike action with a lasting effect (a stat, Budget, Sneak, Damage) "
                "needs a placement: stays = bulwark or character"] if lasting else []
    out = []
    if r[K.C_TOUGH]:
        out.append("a strike card that stays has no toughness")
    on_character = r[K.C_STAYS] == K.STAY_CHARACTER
    if on_character and (r[K.C_AB1] or r[K.C_AB2]):
        out.append("a strike card that stays on a character carries no keyword (a stat only)")
    elif any(r[c] and r[c] not in (K.BUDGET, K.SNEAK) for c in (K.C_AB1, K.C_AB2)):
        out.append("a strike card that stays in the bulwark carries only Budget or Sneak")
    if on_character and r[K.C_UNIQUE]:
        out.append("a strike card that stays on a character is not unique")
    if not lasting:
        out.append("a strike card that stays needs an effect while it stays (a stat, "
                   "Budget or Sneak)")
    return out


def has_ability(r) -> bool:
    """Whether a card offers an in-play ability: a keyword of some step on a card that
    stays in play (characteristic, party or support NPC, bulwark or character action,
    loot)."""
    kind, nat = r[K.C_KIND], r[K.C_NATURE]
    stays = kind in (K.CHARACTERISTIC, K.LOOT) or (kind == K.NPC and nat != K.STRIKE) or (
        kind == K.ACTION and nat in (K.BULWARK, K.CHARACTER))
    return stays and r[K.C_STEP] != 0 and any(
        r[c] in K.STEP_KEYWORDS for c in (K.C_AB1, K.C_AB2))


CARDS = Cards(
    columns=(Column("id"), Column("name"), Column("kind", K.C_KIND, K.KINDS),
             Column("nature", K.C_NATURE, parse=read_nature),
             Column("unique", K.C_UNIQUE, default=0),
             Column("race", K.C_RACE, K.RACES), Column("requires", K.C_REQUIRES, K.RACES,
                                                         what="race"),
             Column("cost", K.C_COST, default=0), Column("step", K.C_STEP, K.STEPS),
             *(Column(f, INT_FIELDS[f], default=0) for f in (
                 "dex", "int", "str", "tough", "terrain", "quest_cost", "quest_points",
                 "loot_points")),
             Column("obj1", K.C_OBJ1, K.OBJECTIVES, what="objective", fold=str.upper),
             Column("oarg1", K.C_OARG1, default=0),
             Column("obj2", K.C_OBJ2, K.OBJECTIVES, what="objective", fold=str.upper),
             Column("oarg2", K.C_OARG2, default=0),
             Column("ability1", K.C_AB1, K.KEYWORDS, what="keyword", fold=str.capitalize),
             Column("arg1", K.C_ARG1, default=0),
             Column("ability2", K.C_AB2, K.KEYWORDS, what="keyword", fold=str.capitalize),
             Column("arg2", K.C_ARG2, default=0),
             Column("ability_cost", K.C_ABCOST, default=0),
             Column("stays", K.C_STAYS, K.STAYS, what="placement", fold=str.lower),
             Column("attach", K.C_ATTACH, K.ATTACH, what="target", fold=str.lower),
             Column("text")),
    width=K.N_COLS, kind_slot=K.C_KIND, kinds=K.KINDS, check=check_card)


class Pool(CardTable):
    """The card pool: one row per card in the engine's integer table, plus the words."""

    CARDS = CARDS


load_pool = Pool.load  # cards.csv read and checked; InputError lists every problem
