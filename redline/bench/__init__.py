"""``redline bench``: timings and memory of whole processes (reading, redlining, revisions)."""
