"""The reference engine's moments outside the steps' windows where the active player alone may
act: the start of its turn and its responses to a strike NPC played against its quest (see
sim/encounter/moments.py); none to perform, no moment."""

from __future__ import annotations

from sim.encounter import codes as K
from sim.encounter.reference_effects import MAX_ACTIONS
from sim.encounter.reference_scoring import Scoring


class Moments(Scoring):
    def alone(self, step: int, boosting: bool):
        """The active player's maneuvers of this step, one at a time until it passes,
        chosen as boost maneuvers are (boosting) or as window maneuvers are."""
        a = self.a
        for _ in range(MAX_ACTIONS):
            if self.over:
                return
            options = self.maneuvers(a, step)
            if not options:
                return
            player = self.player(a)
            o = (player.boost if boosting else player.maneuver)(options)
            if o is None:
                return
            self.use(a, o)

    def start_of_turn(self):
        """Before the draw step: A's start maneuvers, each once a turn."""
        self.alone(K.S_START, True)

    def respond(self):
        """A's responses to a strike NPC just played against its quest."""
        self.alone(K.S_RESPONSE, False)
