"""Finding providers: the offline rule engine (default) and OpenAI-compatible models."""
