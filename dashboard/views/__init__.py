"""Dashboard views, one module per page family; each view is a thin function over services and queries."""
