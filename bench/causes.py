"""Why a target fails, from the analysis of the last full run. Shown under the targets
table only for a target that fails; keep it in step when keeltui changes."""

CAUSES: dict[str, str] = {}
