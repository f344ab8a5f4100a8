"""The review engine: playbooks, providers, grounding, validation, risk and the pipeline.

Pure logic: it takes plain data (clauses, a playbook, a provider, a cache) and
returns plain data (suggestions keyed to anchors), and imports nothing from
Django, Celery or the domain layer. Entry point: :func:`redline.analysis.pipeline.review`.
"""
