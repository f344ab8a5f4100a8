"""The job layer: queueing background work, running it exactly once, and its progress events.

Below the services: it knows jobs and their events, never what a job does (services register their
handlers, :mod:`redline.jobs.registry`). It imports the domain models, never services or interfaces.
"""
