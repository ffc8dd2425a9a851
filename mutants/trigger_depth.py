"""Mutants for the depth of handling triggered abilities (rule 603: issue 21), each named for the rule
it breaks."""

from __future__ import annotations

from mutants.patching import Patcher, mutant  # noqa: F401


# --- modal triggered abilities (603.3c, 700.2b) --------------------------------------------------
def _with_data(ability, **changes):
    from dataclasses import replace

    return replace(ability, data={**ability.data, **changes})


@mutant("modal-trigger-illegal-mode-allowed", "a mode of a modal triggered ability whose targets can't be chosen "
        "can still be chosen as it is put on the stack", ["603.3c", "700.2b"])
def _illegal_mode_allowed(p: Patcher) -> None:
    from dataclasses import replace

    def wrapper(original):
        def choose_mode(game, trigger):
            modes = trigger.ability.data["modes"]
            untargeted = [{k: v for k, v in mode.items() if k != "targets"} for mode in modes]
            chosen = yield from original(game, replace(trigger, ability=_with_data(trigger.ability, modes=untargeted)))
            if chosen is None:
                return None
            mode = next((m for m in modes if list(m["effect"]) == list(chosen.data["effect"])), None)
            if mode is None:  # several modes chosen ('choose one or more'): their targets as the engine put them
                return chosen
            return _with_data(chosen, targets=list(mode.get("targets", [])))
        return choose_mode
    p.wrap("triggers", "_choose_mode", wrapper)


@mutant("modal-trigger-mode-not-announced", "the mode announced for a modal triggered ability is ignored: the "
        "ability goes on the stack with the first other mode (one the engine models)", ["603.3c"])
def _mode_not_announced(p: Patcher) -> None:
    def wrapper(original):
        def choose_mode(game, trigger):
            chosen = yield from original(game, trigger)
            if chosen is None:
                return None
            other = next((mode for mode in trigger.ability.data["modes"]
                          if list(mode["effect"]) != list(chosen.data["effect"])
                          and not any("unmodelled" in step for step in mode["effect"])), None)
            if other is None:
                return chosen
            return _with_data(chosen, targets=list(other.get("targets", [])), effect=list(other["effect"]))
        return choose_mode
    p.wrap("triggers", "_choose_mode", wrapper)


# --- becoming unattached (603.10c) ---------------------------------------------------------------
def _drop_unattached(p: Patcher, *, left: bool) -> None:
    def wrapper(original):
        def emit(game, kind, **data):
            if kind == "unattached" and bool(data.get("left")) == left:
                return None
            return original(game, kind, **data)
        return emit
    p.wrap("ops", "emit", wrapper)


@mutant("unattach-trigger-doesnt-look-back", "an Equipment leaving the battlefield is gone when it becomes "
        "unattached, so its 'whenever this becomes unattached' ability doesn't trigger (no look back in time)",
        ["603.10c"])
def _unattach_no_lookback(p: Patcher) -> None:
    _drop_unattached(p, left=True)


@mutant("reattaching-doesnt-unattach", "moving an Equipment from one creature to another doesn't make it "
        "become unattached from the first", ["603.10c", "701.3a"])
def _reattach_not_unattach(p: Patcher) -> None:
    _drop_unattached(p, left=False)


# --- change of control (603.10d) -----------------------------------------------------------------
@mutant("control-change-trigger-doesnt-look-back", "an ability that triggers on a player losing control of an "
        "object (or an opponent gaining it from them) is judged with the object's new controller",
        ["603.10d"])
def _control_change_no_lookback(p: Patcher) -> None:
    from reference_engine import triggers

    def wrapper(original):
        def sources(game, event):
            if event.kind == "control_changed":
                yield from triggers._permanent_sources(game.state)
                for emblem in game.state.emblems:
                    yield triggers.TriggerSource(None, emblem.uid, emblem.source_name, emblem.controller), emblem.abilities
                return
            yield from original(game, event)
        return sources
    p.wrap("triggers", "_sources", wrapper)


# --- Auras' leaves-the-battlefield triggers (603.6e) --------------------------------------------
@mutant("aura-trigger-cant-find-the-card", "an Aura's ability that triggers on the enchanted permanent leaving "
        "the battlefield can't find the new object that card became", ["603.6e"])
def _aura_trigger_loses_card(p: Patcher) -> None:
    def wrapper(original):
        def objects(game, ctx, ref):
            if ref == "event_object" and ctx.snapshot is not None and "Aura" in ctx.snapshot.subtypes:
                return []
            return original(game, ctx, ref)
        return objects
    p.wrap("effects", "objects", wrapper)
