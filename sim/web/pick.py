"""The workbench's Pick column: a deck per seat, the policies, the match count and seed, and a
widget per declared rule option holding the folder's value with its range; what they hold
is a Choice."""

from __future__ import annotations

import tomllib

import panel as pn

from sim.web.desk import Choice, Desk


def rule_widget(option, now):
    """The widget of one declared rule option, holding `now`, with its range or words."""
    if option.kind == "word":
        w = pn.widgets.Select(name=option.name, options=list(option.words), value=now)
    elif option.kind == "flag":
        w = pn.widgets.Checkbox(name=option.name, value=bool(now))
    elif option.kind == "list":
        w = pn.widgets.TextInput(name=f"{option.name} (a list)", value=str(now))
    elif option.allowed:
        w = pn.widgets.Select(name=option.name, options=list(option.allowed), value=now)
    else:
        w = pn.widgets.IntInput(name=f"{option.name} ({option.lo}..{option.hi})", value=now,
                                start=option.lo, end=option.hi)
    w.description = option.doc
    w.css_classes = [f"rule-{option.name}"]
    return w


class Pick:
    """The Pick column of one desk."""

    def __init__(self, desk: Desk):
        info, game = desk.info, desk.game
        decks = sorted(desk.decks)
        self.fewest, seats = game.seats
        starting = list(info.decks) + list(info.table[2:seats])
        self.decks = [pn.widgets.Select(name=f"Deck {'ABCDEFGH'[i]}", options=decks,
                                        value=starting[i] if i < len(starting) else decks[0])
                      for i in range(seats)]
        self.policy_a = pn.widgets.Select(name="Policy of A", options=desk.policies,
                                          value=info.policy)
        self.policy_b = pn.widgets.Select(name="Policy of B (and the seats after)",
                                          options=desk.policies, value=info.policy)
        self.matches = pn.widgets.IntInput(name="Matches", value=2000, start=10, step=1000,
                                           css_classes=["matches"])
        self.seed = pn.widgets.IntInput(name="Seed", value=1, start=0, css_classes=["seed"])
        shipped = desk.matchup(desk.folder, Choice(list(info.decks), info.policy, info.policy))
        self.rules_now = game.describe(shipped)["rules"]
        self.rules = {o.name: rule_widget(o, self.rules_now.get(o.name, o.default))
                      for o in game.options.options}
        if "players" in self.rules:  # seats past the table's size are not shown
            self.rules["players"].param.watch(lambda _: self._seats(), "value")
            self._seats()

    def _seats(self) -> None:
        players = self.rules["players"].value or self.fewest
        for i, pick in enumerate(self.decks):
            pick.visible = i < max(self.fewest, players)

    def choice(self) -> Choice:
        """What the column holds; rule options only where they differ from the folder."""
        rules = {}
        for name, w in self.rules.items():
            value = w.value
            if isinstance(w, pn.widgets.TextInput):
                try:
                    value = tomllib.loads(f"v = {value}")["v"]
                except tomllib.TOMLDecodeError:
                    pass
            if value != self.rules_now.get(name):
                rules[name] = value
        # A cleared players field holds no number: the seats shown stay the fewest, and the
        # validator's word on the value is what the page then says.
        players = rules.get("players", self.rules_now.get("players", self.fewest))
        seated = players if isinstance(players, int) else self.fewest
        decks = [w.value for w in self.decks[:max(self.fewest, seated)]]
        return Choice(decks, self.policy_a.value, self.policy_b.value, rules,
                      int(self.matches.value), int(self.seed.value))

    def view(self, folder_pick):
        return pn.Column(folder_pick, *self.decks, self.policy_a, self.policy_b, self.matches,
                         self.seed, pn.Card(*self.rules.values(), title="Rule options",
                                            collapsed=True, css_classes=["rule-options"]),
                         width=300)
