"""Integer codes of the Encounter card table, its words and the rule-option vector."""

from __future__ import annotations

# Card kinds, natures, races, steps, objectives and keywords (0 is "none" where it can be).
KINDS = ("pc", "characteristic", "npc", "action", "location", "loot", "quest", "blank")
PC, CHARACTERISTIC, NPC, ACTION, LOCATION, LOOT, QUEST, BLANK = range(8)
NATURES = ("", "party", "support", "strike", "bulwark", "character", "instant", "strike")
PARTY, SUPPORT, STRIKE, BULWARK, CHARACTER, INSTANT, STRIKE_ACTION = range(1, 8)
RACES = ("", "cyborg", "elf", "grey", "human", "orc")
STEPS = ("", "draw", "boost", "quest", "encounter", "combat", "score", "settle", "start",
         "quest_start", "response")
S_DRAW, S_BOOST, S_QUEST, S_ENCOUNTER, S_COMBAT, S_SCORE, S_SETTLE = range(1, 8)
S_START = 8  # the start of the turn, before the draw step
S_QSTART = 9  # the start of the quest step, before the quest is played
S_RESPONSE = 10  # in response to a strike NPC played against the active player's quest
OBJECTIVES = ("", "INT", "DEX", "STR", "UNHURT", "PARTY", "PLACE", "DEFEAT")
O_INT, O_DEX, O_STR, O_UNHURT, O_PARTY, O_PLACE, O_DEFEAT = range(1, 8)
KEYWORDS = ("", "Might", "Ward", "Heal", "Draw", "Revive", "Cancel", "Wound", "Hex", "Ambush",
            "Damage", "Budget", "Sneak", "Capture", "Escape")
(MIGHT, WARD, HEAL, DRAW, REVIVE, CANCEL, WOUND, HEX, AMBUSH, DAMAGE, BUDGET,
 SNEAK, CAPTURE, ESCAPE) = range(1, 15)
STATIC_KEYWORDS = (DAMAGE, BUDGET, SNEAK, CAPTURE)
STEP_KEYWORDS = (MIGHT, WARD, HEAL, DRAW, REVIVE, CANCEL, WOUND, ESCAPE)

# Columns of the card table.
(C_KIND, C_NATURE, C_UNIQUE, C_RACE, C_REQUIRES, C_COST, C_STEP, C_DEX, C_INT, C_STR,
 C_TOUGH, C_TERRAIN, C_QCOST, C_QPOINTS, C_LPOINTS, C_OBJ1, C_OARG1, C_OBJ2, C_OARG2,
 C_AB1, C_ARG1, C_AB2, C_ARG2) = range(23)
C_ABCOST = 23  # what one use of the card's in-play ability costs
C_STAYS = 24  # a strike action's placement when it stays in play (STAYS), 0: discarded
C_ATTACH = 25  # the characters a character action may attach to (ATTACH), 0: any of them
N_COLS = 26
STAYS = ("", "bulwark", "character")
ATTACH = ("", "pc", "party")
ATTACH_PC, ATTACH_PARTY = 1, 2
STAY_BULWARK, STAY_CHARACTER = 1, 2
STAT_COLS = (C_DEX, C_INT, C_STR, C_TOUGH)

# Where each rule option lies in the engine vector (declared in sim/encounter/options.py).
(R_POINTS, R_HAND, R_MULLIGANS, R_CURRENCY, R_POOL, R_TIE, R_DEFEND, R_QMAND, R_AFTER,
 R_UNIQUE, R_ABILITY, R_LOOT, R_HEAL, R_DECKOUT, R_MAXTURNS, R_COPIES, R_DRAWSIZE,
 R_LOOTSIZE, R_EMODE, R_EK, R_ESTR, R_EOBJ, R_EARG, R_EPTS, R_CHOOSE) = range(25)
MAX_STRENGTHS = 16
R_ESTR_LIST = 25  # R_ESTR holds how many strengths the list has; the list follows here
R_PLAYERS = R_ESTR_LIST + MAX_STRENGTHS  # seats at the table
R_STRIKE_BUDGET = R_PLAYERS + 1  # one strike budget the opponents share, or one each
R_MAXROUNDS = R_PLAYERS + 2  # rounds before the match is a draw
N_RULES = R_PLAYERS + 3
BUDGET_SHARED, BUDGET_EACH = 0, 1
CUR_POOL, CUR_DISCARD, CUR_TWILIGHT = 0, 1, 2
TIE_INT, TIE_STRIKER, TIE_DEFENDER, TIE_NONE = 0, 1, 2, 3
CHOOSE_ONCE, CHOOSE_EACH_TURN = 0, 1
AB_TURN, AB_STEP, AB_UNLIMITED = 0, 1, 2

# How a match ended. The cap is on rounds (max_rounds), or on the turns of all the players
# together where max_turns is set: one code for both.
END_REASONS = ("points", "pc_killed", "deck_out", "round_or_turn_cap", "pc_captured")
END_POINTS, END_KILLED, END_DECKOUT, END_CAP, END_CAPTURED = range(5)
