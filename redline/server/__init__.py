"""Serving the product safely: the ASGI handler, middleware, request and upload limits, process hardening.

Framework plumbing with no knowledge of contracts; the services use its admission gate and reader pool.
"""
