"""One Encounter game's state as flat integer arrays, with the named slots every rule reads."""

from __future__ import annotations

from sim.encounter.codes import STEPS

# Every zone can hold a whole deck (40 draw + 20 loot + PC and characteristics < 64).
CAP = 64

# Player row P[p]: scalars first, then one block of CAP slots per zone.
PC = 0  # the PC card
PC_WOUNDS = 1
PC_WARD = 2  # wounds still prevented this turn
PC_DEFENDED = 3  # defended this turn (defend_limit = once)
POOL = 4
POINTS = 5
DECK_HEAD = 6  # draw deck: a ring of CAP slots, top at DECK_HEAD
DECK_N = 7
LOOT_HEAD = 8
LOOT_N = 9
HAND_N = 10
DISC_N = 11
PARTY_N = 12
SUP_N = 13
CHAR_N = 14
BULW_N = 15
LOOTS_N = 16  # loot cards attached to the PC
ATT_N = 17  # character actions in play
LOC = 18  # location card, -1 for none
LOC_PLAYED = 19  # a location was played this turn
THREAT = 20  # twilight: A's costs, added to its next strike budget
Q_ATT = 21
Q_DONE = 22
PC_WOUNDS_ALL = 23
PARTY_WOUNDS_ALL = 24
FACED = 25
DEFEATED = 26
DEATH_TURN = 27
MULLS = 28
OPEN_Q = 29  # quests in the opening hand (after mulligans)
# What any card of p's decks can ever bring, filled in at set-up (bit 0 says it was): bit s
# for an instant of step s (played from hand), bit PLAY_BIT + s for a card that can be in
# play with an ability of step s, bit KW_BIT + k for keyword k. Cards never change owner, so
# what p's decks lack need not be looked for in p's zones.
MAY = 30
PLAY_BIT = 11
KW_BIT = 22
ASIDE = 31  # Blanks set aside out of the game (met on top of the draw or loot deck)
SENT = 32  # strike NPCs sent against p's own last quest, -1 before any
LEFT = 33  # twilight: the strike budget p has left this turn as an opponent, pays its costs
WITS = 35  # intelligence of p's PC with its starting characteristics (who chooses first)
OUT = 34  # p's PC was killed (or its deck ran out) at a table of more than two: p is out
DEATH_ROUND = 36  # the round p's PC was killed in, -1 while it lives
USED = 37  # an ability of p's was used since its uses were last reset (reset_uses)
# What p's play zones hold that can maneuver, counted again whenever a card enters or leaves
# them (actors.count_actors): bit s of PLAY_STEPS for a step s one of them acts in (bit 0 says
# they were counted), ACTORS_N of them listed from ACTORS in the zones' order.
PLAY_STEPS = 38
ACTORS_N = 39
# What p's cards in play add to its characters' stats (dexterity, intelligence, strength,
# toughness: K.STAT_COLS in order) and its Budget and Sneak, summed as cards enter or leave
# play (stats.count_stats, STATS_OK set once counted): PC_SUM what reaches the PC alone
# (the PC, characteristics, support NPCs, loot, the character actions it bears), ALL_SUM
# what reaches every character (bulwark, location), PARTY_SUM + 4 * k party NPC k's own.
STATS_OK = 40
PC_SUM = 41
ALL_SUM = 45
BUDGET_SUM = 49
SNEAK_SUM = 50
DECK = 51
LOOTD = DECK + CAP
HAND = LOOTD + CAP
DISC = HAND + CAP
PARTY = DISC + CAP  # party NPC card
PWOUND = PARTY + CAP  # its wounds
PWARD = PWOUND + CAP  # its ward left this turn
PDEF = PWARD + CAP  # defended this turn
SUP = PDEF + CAP
CHARS = SUP + CAP
BULW = CHARS + CAP
LOOTS = BULW + CAP
ATT = LOOTS + CAP  # character action card
ATT_ON = ATT + CAP  # who bears it: -1 the PC, k party slot k
ATT_BY = ATT_ON + CAP  # its owner (an opponent's strike card that stays on a character)
ACTORS = ATT_BY + CAP  # a card in p's play zones with a maneuver (count_actors)
PARTY_SUM = ACTORS + CAP  # 4 slots a party NPC
# p's instant actions in hand, counted by their step s in HAND_STEPS + s as cards enter or
# leave the hand (hand.count_hand; HAND_STEPS + 0 is 1 once counted), and where its quests,
# instants and cards that may be boost plays are: bit i of HAND_QUESTS (HAND_INSTANTS,
# HAND_BOOSTS) for one at hand position i (bits from HAND_N up: anything).
HAND_STEPS = PARTY_SUM + 4 * CAP
N_STEPS = len(STEPS)  # the steps and moments
HAND_QUESTS = HAND_STEPS + N_STEPS
HAND_INSTANTS = HAND_QUESTS + 1
HAND_BOOSTS = HAND_INSTANTS + 1
PLAYER_SIZE = HAND_BOOSTS + 1

# Game row G.
TURN = 0  # turns begun, both players together
ACTIVE = 1
FIRST = 2
OVER = 3
WINNER = 4
END = 5
QUEST = 6  # the quest being attempted, -1 none
BUDGET = 7  # strike budget left (twilight: pays B's costs this turn)
HEX = 8
AMBUSH = 9
WINS = 10  # combats A's defenders won this turn
PCW_TURN = 11  # wounds A's PC took this turn
S_N = 12  # strikers in play this turn
C_STRIKER = 13  # slot of the striker in combat, -1 none
C_DEF = 14  # defender in combat: -1 PC, else party slot; -2 none; -3 killed in its window
MIGHT_A = 15
MIGHT_B = 16
LOG_N = 17
STEP = 18
PLAYED_N = 19
COMPLETED = 20  # the quest was completed this turn
NEED_N = 21  # unmet objectives listed at NEED_OBJ / NEED_ARG; -1: not read yet this choice
CHOOSER = 22  # the seat that chooses who goes first (choose_first = each_turn: every round)
ROUND_PLAYED = 23  # bit p: seat p has taken its turn in this round
CTR = 24  # 16 stream counters: purpose * seats + seat
SCARD = 40  # strikers: card, wounds, state (0 waiting, 1 fought, 2 gone), ward, owner
SWOUND = SCARD + CAP
SSTATE = SWOUND + CAP
SWARD = SSTATE + CAP
SOWNER = SWARD + CAP
PLAYED = SOWNER + CAP  # card played this turn by ...
PLAYED_BY = PLAYED + CAP
NEED_OBJ = PLAYED_BY + CAP  # an unmet objective of a quest in hand (two per quest) ...
NEED_ARG = NEED_OBJ + 2 * CAP  # ... and its argument (stat objectives: the shortfall)
ROUNDS = NEED_ARG + 2 * CAP  # the round being played, from 1
GAME_SIZE = ROUNDS + 1

# Seats at the table: 2 .. MAX_SEATS (rule option players).
MAX_SEATS = 4

# Stream purposes (stream = purpose * seats + seat: purpose * 2 + seat for two players).
SHUFFLE, DICE, POLICY, LOOTSTREAM = 0, 1, 2, 3
N_PURPOSES = 4
N_STREAMS = N_PURPOSES * MAX_SEATS

# Card statistics after the common four.
ST_PLAYED, ST_USED, ST_SUCCEEDED = 4, 5, 6
N_CARD_STATS = 7

# Log events: (turn, seat, event, card, a, b).
LOG_COLS = 6
(EV_TURN, EV_DRAW, EV_DISCARD, EV_PLAY, EV_QUEST, EV_BUDGET, EV_STRIKE, EV_MANEUVER,
 EV_COMBAT, EV_WOUND, EV_KILL, EV_OBJECTIVE, EV_SCORE, EV_FAIL, EV_REVEAL, EV_LOOT,
 EV_END, EV_FIRST, EV_CANCEL, EV_HEAL, EV_REVIVE, EV_DECKOUT, EV_MULLIGAN,
 EV_ASIDE) = range(24)
EV_STAY = 24  # a strike card stays in play (a: its placement, STAYS; b: the bearer)
EV_CAPTURE = 25  # a striker with Capture beat the PC: its player loses
# EV_TURN carries every seat's points at the turn's start: a = A + B * POINTS_BASE,
# b = C + D * POINTS_BASE (0 for a seat the table does not have; points stay under it).
POINTS_BASE = 10_000
