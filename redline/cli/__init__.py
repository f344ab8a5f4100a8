"""The ``redline`` command line (also ``python -m redline``): thin handlers over the pure engines."""
