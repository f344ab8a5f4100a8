"""Playbooks: ``model`` (rules, red flags, thresholds and their patterns), ``io`` (reading, checking and writing
the interchange format, and the built-in default), ``schema.json`` (the format's JSON Schema) and
``default.yaml`` (the built-in commercial playbook). See ``docs/playbook-format.md``."""
