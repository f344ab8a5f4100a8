"""The web server freezes its start-up objects out of the garbage collector's full passes."""

from __future__ import annotations

import gc

from django.urls import get_resolver

from redline.server.heap import freeze_startup_heap


def test_start_up_objects_are_frozen_and_what_requests_create_is_still_collected():
    try:
        frozen = freeze_startup_heap()
        assert frozen > 10_000
        tracked = gc.get_objects()  # what a full pass walks: the permanent generation is left out
        resolver, views = get_resolver(), [p.callback for p in get_resolver().url_patterns if hasattr(p, "callback")]
        assert not any(obj is resolver for obj in tracked)
        assert not any(obj is view for obj in tracked for view in views[:3])

        class Node:
            pass

        cycle = Node()
        cycle.self = cycle  # garbage made after the freeze, collectable only by the collector
        del cycle
        assert gc.collect() >= 1
    finally:
        gc.unfreeze()
