"""Request (``*In``) and response (``*Out``) schemas, one module per resource."""
