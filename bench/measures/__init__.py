"""One module per measure; each exposes ``run(ctx)`` and records into ``ctx.results``."""
