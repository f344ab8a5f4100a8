"""The learning engine: what the lawyer did with our suggestions, and what to learn from it.

Pure functions over file bytes and plain records (no Django, no database):

* :mod:`.outcomes` — ``detect_outcomes``: pending / accepted / rejected / modified / missing per known entry;
* :mod:`.suppression` — rejected entries as records, and the filter that never re-suggests them;
* :mod:`.preferences` — the seed's ``update_preferences``, learned guidance lines with provenance, version diffs;
* :mod:`.feedback` — thumbs follow-up tags and ``feedback.json``, in the seeds' shapes;
* :mod:`.rounds` — per-rule round-over-round report between two runs.
"""
