"""Mutants for the choice among replacement effects on where an object goes (616.1, 616.1e-f) and for
melded permanents leaving the battlefield (712.21b, 712.21d): each named for the rule it breaks
(cases/zone-replacement-order/, cases/meld/)."""

from __future__ import annotations

from mutants.patching import Patcher, mutant


@mutant("zone-replacements-in-timestamp-order", "several replacement effects on where an object goes ('exile it "
        "instead', 'put it on the bottom of its owner's library instead') are applied in timestamp order, its "
        "controller never choosing which applies first", ["616.1", "616.1e"])
def _timestamp_order(p: Patcher) -> None:
    p.replace("zone_replacements", "order_matters", lambda effects, origin, to: False)


@mutant("zone-replacement-order-chosen-by-source-controller", "the order of the replacement effects on where an "
        "object goes is chosen by the controller of one of the effects' sources, not by the object's controller",
        ["616.1"])
def _source_controller_chooses(p: Patcher) -> None:
    from reference_engine import zone_replacements
    from reference_engine.layers import characteristics
    from reference_engine.replacement import choose_order

    def choose_orders(game, objs, to):
        orders = {}
        for obj in objs:
            effects = zone_replacements.applicable(game, obj, to)
            if not zone_replacements.order_matters(effects, obj.zone, to):
                continue
            affected = zone_replacements.affected_player(game, obj)
            player = affected
            for effect in effects:
                source = game.state.find_uid(effect.source_uid)
                if source is not None and characteristics(game.state, source).controller != affected:
                    player = characteristics(game.state, source).controller
                    break
            origin = obj.zone
            orders[obj.id] = yield from choose_order(
                game, player, effects, lambda order, origin=origin: zone_replacements.outcome(order, origin, to)[0],
                "where it goes")
        return orders
    p.replace("zone_replacements", "choose_orders", choose_orders)


@mutant("zone-replacement-applies-after-it-no-longer-applies", "once one replacement effect has sent an object "
        "elsewhere than a graveyard, the other effects on its going to a graveyard still apply, each in turn",
        ["616.1f"])
def _still_applies(p: Patcher) -> None:
    from reference_engine.model import Zone

    def applies(spec, origin, route):
        return not spec.get("from_battlefield") or origin is Zone.BATTLEFIELD
    p.replace("zone_replacements", "_applies", applies)


@mutant("melded-cards-replaced-one-by-one", "a replacement effect chosen for a melded permanent leaving the "
        "battlefield applies to one of its two cards only; the other card gets the effects not chosen",
        ["712.21d"])
def _melded_cards_one_by_one(p: Patcher) -> None:
    from reference_engine import zone_replacements

    others: dict[int, object] = {}

    def destination_wrapper(original):
        def destination(game, obj, to, order=None):
            if obj.meld_partner is not None and order is not None and len(order) > 1:
                others[obj.uid] = zone_replacements.outcome(list(order[1:]) + list(order[:1]), obj.zone, to)[0].zone
            return original(game, obj, to, order)
        return destination

    def partner_wrapper(original):
        def put_partner_card(game, left, destination, *placement):
            return original(game, left, others.pop(left.uid, destination), *placement)
        return put_partner_card
    p.wrap("ops", "_destination", destination_wrapper)
    p.wrap("meld", "put_partner_card", partner_wrapper)


@mutant("melded-exile-order-chosen-by-owner", "the relative timestamp order of the two cards of an exiled melded "
        "permanent is chosen by their owner (613.7m's APNAP order), not by the player who exiles it", ["712.21b"])
def _exile_order_by_owner(p: Patcher) -> None:
    def wrapper(original):
        def choose_exiled_order(game, player, found):
            owner = game.state.objects[found[0]].owner
            return (yield from original(game, owner, found))
        return choose_exiled_order
    p.wrap("meld", "choose_exiled_order", wrapper)


@mutant("melded-exile-order-not-chosen", "the two cards of an exiled melded permanent keep the timestamps they "
        "arrived in exile with, the other card last, the exiling player choosing nothing", ["712.21b"])
def _exile_order_fixed(p: Patcher) -> None:
    def choose_exiled_order(game, player, found):
        yield from ()
    p.replace("meld", "choose_exiled_order", choose_exiled_order)


@mutant("zone-replacement-choices-not-in-apnap-order", "players who must each choose the order of replacement effects "
        "on where their objects go, in one event, choose the nonactive player first, not in APNAP order", ["616.1"])
def _not_apnap(p: Patcher) -> None:
    from reference_engine import zone_replacements

    def wrapper(original):
        def choose_orders(game, objs, to):
            orders = {}
            for player in reversed(game.state.apnap()):
                mine = [o for o in objs if zone_replacements.affected_player(game, o) == player]
                orders.update((yield from original(game, mine, to)))
            return orders
        return choose_orders
    p.wrap("zone_replacements", "choose_orders", wrapper)
