"""A complete adapter on the engine kit (docs/adapters.md): a toy engine that plays lands and passes
priority, in process as `LandsAdapter` or over stdio as `python lands_adapter.py`."""

from engine_kit import CAPABILITIES, STEPS, Adapter, Case, CaseError, Pending, Rejected, Session, Unsupported, serve


class LandsSession(Session):
    def __init__(self, case: Case) -> None:
        setup, self.players = case.setup, list(case.setup["players"])
        self.active = self.priority = setup["active"]
        self.turn_number, self.step_name, self.passes, self.lands_played = setup["turn"], setup["step"], 0, 0
        self.objects, self.labels = [], {}  # the toy engine's state: a dict per card, its id the index
        self.life = {player: zones["life"] for player, zones in setup["players"].items()}
        if any("Land" not in card["faces"][0]["types"] for card in case.cards.values()):
            raise Unsupported("the toy engine knows only lands")
        for player, zones in setup["players"].items():
            if any(zones[zone] for zone in ("library", "graveyard", "exile", "emblems")):
                raise Unsupported("the toy engine has only hands and a battlefield")
            for zone, entry in [(z, entry) for z in ("hand", "battlefield") for entry in zones[z]]:
                if (card := case.cards.get(entry.get("card"))) is None:
                    raise CaseError(f"no card data sent for {entry.get('card')!r}")
                self.labels[entry.get("label")] = len(self.objects)
                self.objects.append({"label": entry.get("label"), "name": card["name"], "zone": zone,
                                     "owner": player, "controller": player, "tapped": False})

    def pending(self) -> Pending:
        return Pending("priority", self.priority)

    def observe(self) -> dict:
        game = {"turn": self.turn_number, "active": self.active, "step": self.step_name, "priority": self.priority}
        return {"game": {**game, "stack": []}, "players": {p: {"life": life} for p, life in self.life.items()},
                "objects": [dict(o) for o in self.objects]}

    def pass_priority(self, player: str) -> None:
        if player != self.priority:
            raise Rejected(f"{self.priority} holds priority, not {player}")
        self.passes, self.priority = self.passes + 1, next(p for p in self.players if p != player)
        if self.passes == 2:  # both passed in succession: the next step (the toy counts no turns)
            self.passes, self.priority = 0, self.active
            self.step_name = STEPS[(STEPS.index(self.step_name) + 1) % len(STEPS)]

    def play_land(self, player: str, card, face: str = "front") -> None:
        land = self.objects[card]
        if (land["zone"], land["owner"], self.priority, self.active) != ("hand", player, player, player) \
                or self.step_name not in ("precombat-main", "postcombat-main") or self.lands_played:
            raise Rejected(f"{player} can't play {land['name']} now")
        land["zone"], self.lands_played, self.passes = "battlefield", 1, 0


class LandsAdapter(Adapter):
    name, version, issues = "lands-example", "0.1", "https://example.org/issues"
    lacks = {capability: "the toy engine knows only lands" for capability in CAPABILITIES}

    def open(self, case: Case) -> LandsSession:
        return LandsSession(case)


if __name__ == "__main__":
    serve(LandsAdapter())
