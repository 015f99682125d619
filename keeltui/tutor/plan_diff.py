"""What a new version of the plan changed: steps added, removed, reordered. Pure.

A learner who declined a plan reads its successor against the one they turned down;
the card says what moved instead of leaving them to compare two graphs by eye.
"""

from __future__ import annotations

from .mermaid import Plan


def _listed(titles: list[str]) -> str:
    return ", ".join(titles)


def _in_order(first: list[str], second: list[str]) -> set[str]:
    """The ids of a longest common subsequence of two orders (plans are a few dozen steps)."""
    rows = len(first) + 1
    best = [[0] * (len(second) + 1) for _ in range(rows)]
    for i in range(len(first) - 1, -1, -1):
        for j in range(len(second) - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if first[i] == second[j] else max(best[i + 1][j], best[i][j + 1])
    kept: set[str] = set()
    i = j = 0
    while i < len(first) and j < len(second):
        if first[i] == second[j]:
            kept.add(first[i])
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return kept


def plan_changes(before: Plan, after: Plan) -> tuple[str, ...]:
    """Lines such as ``Added: Timing``, ``Removed: Basics``, ``Moved: Leucine (3 → 1)``;
    empty when the steps and their order are the same. Steps are matched by id."""
    old_order = before.topological_order()
    new_order = after.topological_order()
    old_ids, new_ids = set(old_order), set(new_order)
    added = [after.node(node_id).title for node_id in new_order if node_id not in old_ids]  # type: ignore[union-attr]
    removed = [before.node(node_id).title for node_id in old_order if node_id not in new_ids]  # type: ignore[union-attr]
    # Reordered: the kept steps outside the longest run that kept its order (one step
    # moved to the front is one move, not every step it pushed down).
    kept_old = [node_id for node_id in old_order if node_id in new_ids]
    kept_new = [node_id for node_id in new_order if node_id in old_ids]
    stayed = _in_order(kept_old, kept_new)
    moved = [
        f"{after.node(node_id).title} ({old_order.index(node_id) + 1} → {new_order.index(node_id) + 1})"  # type: ignore[union-attr]
        for node_id in kept_new if node_id not in stayed
    ]
    lines = []
    if added:
        lines.append(f"Added: {_listed(added)}")
    if removed:
        lines.append(f"Removed: {_listed(removed)}")
    if moved:
        lines.append(f"Reordered: {_listed(moved)}")
    return tuple(lines)
