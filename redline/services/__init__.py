"""Workflows: keyword-only, typed functions named ``<entity>_<action>``."""
