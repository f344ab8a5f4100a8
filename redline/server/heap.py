"""The web server's start-up objects are frozen out of the garbage collector's full passes.

A web process holds about 100,000 objects that live as long as it does: Django,
the URL configuration with every view, the API's schemas, the libraries. CPython's
full (generation 2) collection walks every one of them each time it runs, which
under load is every few seconds; measured with ``scripts/load`` on this project's
2-core reference machine, each pass stopped the process for 60-130 ms of CPU,
and polls caught behind one took 250-370 ms. ``gc.freeze()`` moves the objects
alive after start-up into a generation the collector never walks, so a full pass
only looks at what requests created. Garbage cycles are collected first, so
nothing that is already garbage is frozen.
"""

from __future__ import annotations

import gc


def freeze_startup_heap() -> int:
    """Load everything a request will need, collect, freeze; the number of objects frozen."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # imports every view, router and schema  # noqa: B018
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
