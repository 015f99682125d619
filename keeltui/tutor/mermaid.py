"""Parse a tutor plan written as a mermaid flowchart.

The teacher writes its plan as mermaid because models know the notation well. The
parser enforces exactly one rule strictly — node ids are slugs (``[a-z0-9_-]+``) —
because ids are the identity that quiz tags and the plan map key on. Everything else
(header, direction, comments, shapes, quotes, arrow styles, labels, chains, ``&``
groups, styling lines) is accepted, because each extra rule is one more way for a
model to fail on a plan that any mermaid reader would understand.

Every failure is a :class:`PlanError` naming the line and the exact problem, and no
other exception escapes :func:`parse_plan`, whatever the input. Pure: text in, plan out.
"""

from __future__ import annotations

import heapq
import html
import re
import unicodedata
from dataclasses import dataclass
import itertools

__all__ = [
    "MAX_EDGES",
    "MAX_NODES",
    "MAX_PLAN_CHARS",
    "Plan",
    "PlanError",
    "PlanNode",
    "check_plan_command",
    "is_slug",
    "parse_plan",
    "plan_summary",
    "slugify",
]


# Caps that keep a hostile or runaway plan cheap: a teaching plan is a few dozen steps,
# and "a0 & … & a2999 --> b0 & … & b2999" would otherwise expand to 9 million edges.
MAX_PLAN_CHARS = 20_000
MAX_NODES = 200
MAX_EDGES = 2_000

# Control bytes and bidi overrides from the input are shown as escapes, never drawn.
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ufeff]")


def _escape_controls(text: str) -> str:
    def escape(match: re.Match[str]) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return _UNSAFE.sub(escape, text)


class PlanError(ValueError):
    """A plan that cannot be used, with the 1-based line that explains why."""

    def __init__(self, line: int, message: str) -> None:
        message = _escape_controls(message)
        # Both values go to ValueError so the error pickles and compares naturally.
        super().__init__(line, message)
        self.line = line
        self.message = message

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass(frozen=True)
class PlanNode:
    """One step of the plan: its slug id, its title and the line that titled it.

    ``shape`` is the bracket pair the writer used (``"{}"`` a decision, ``"(())"`` a
    circle…), "" for a plain box or a bare id, so the plan card can draw it as written.
    """

    id: str
    title: str
    line: int
    shape: str = ""


@dataclass(frozen=True)
class Plan:
    """A parsed plan: nodes in order of first appearance, ``before → after`` edges."""

    nodes: tuple[PlanNode, ...]
    edges: tuple[tuple[str, str], ...]
    labels: tuple[tuple[str, str, str], ...] = ()
    """``(before, after, label)`` for each edge written with a label (``a -- if stuck --> b``)."""

    def label(self, before: str, after: str) -> str:
        """The label of the edge ``before → after`` ('' when it has none)."""
        return next((text for b, a, text in self.labels if (b, a) == (before, after)), "")

    @property
    def ids(self) -> tuple[str, ...]:
        """Node ids in order of first appearance."""
        return tuple(node.id for node in self.nodes)

    def node(self, node_id: str) -> PlanNode | None:
        """The node with this id, or None."""
        for node in self.nodes:
            if node.id == node_id:
                return node
        return None

    def __contains__(self, node_id: object) -> bool:
        return any(node.id == node_id for node in self.nodes)

    def topological_order(self) -> list[str]:
        """Node ids so that every edge runs forwards; ties go to first appearance.

        Raises ValueError if the edges hold a cycle (only possible for a hand-built
        Plan: :func:`parse_plan` never returns one).
        """
        order = _kahn(self.ids, self.edges)
        if len(order) != len(self.nodes):
            raise ValueError("the plan has a cycle")
        return order


# --- small helpers -----------------------------------------------------------------

_SLUG = re.compile(r"[a-z0-9_-]+")


def is_slug(text: str) -> bool:
    """True when ``text`` is a valid node id: lowercase ASCII letters, digits, - or _."""
    return _SLUG.fullmatch(text) is not None


_CAMEL_LOWER_UPPER = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_CAMEL_ACRONYM = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")


def slugify(text: str) -> str:
    """A best-effort slug for ``text`` (``"netBalance"`` → ``"net_balance"``); may be ''."""
    text = _CAMEL_ACRONYM.sub("_", _CAMEL_LOWER_UPPER.sub("_", text))
    decomposed = unicodedata.normalize("NFKD", text)
    out: list[str] = []
    for char in decomposed:
        if unicodedata.combining(char):
            continue  # accents fall away: "café" → "cafe"
        lower = char.lower()
        if lower.isascii() and (lower.isalnum() or lower in "-_"):
            out.append(lower)
        else:
            out.append("_")
    return re.sub(r"_+", "_", "".join(out)).strip("_-")


def _slug_message(candidate: str) -> str:
    message = (
        f'node id "{candidate}" is not a slug — use lowercase letters, digits, "-" or "_"'
    )
    suggestion = slugify(candidate)
    return f'{message}, e.g. "{suggestion}"' if suggestion else message


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _kahn(ids: tuple[str, ...], edges: tuple[tuple[str, str], ...]) -> list[str]:
    """Kahn's algorithm with a heap on appearance index, so the order is stable."""
    rank = {node_id: index for index, node_id in enumerate(ids)}
    indegree = dict.fromkeys(ids, 0)
    after: dict[str, list[str]] = {node_id: [] for node_id in ids}
    for before, later in edges:
        if before in rank and later in rank:
            after[before].append(later)
            indegree[later] += 1
    ready = [rank[node_id] for node_id in ids if indegree[node_id] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        node_id = ids[heapq.heappop(ready)]
        order.append(node_id)
        for later in after[node_id]:
            indegree[later] -= 1
            if indegree[later] == 0:
                heapq.heappush(ready, rank[later])
    return order


# --- lines and statements ----------------------------------------------------------

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _split_lines(text: str) -> list[str]:
    """Physical lines as an editor numbers them (line 1 is index 0)."""
    return _LINE_BREAK.split(text)


def _statements(line: str) -> list[str]:
    """Cut a ``%%`` comment and split on ``;``, both only outside quotes and brackets."""
    pieces: list[str] = []
    current: list[str] = []
    depth = 0
    in_quote = False
    index = 0
    while index < len(line):
        char = line[index]
        if in_quote:
            in_quote = char != '"'
        elif char == '"':
            in_quote = True
        elif depth == 0 and line.startswith("%%", index):
            break
        elif char in "[({":
            depth += 1
        elif char in "])}":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            pieces.append("".join(current))
            current = []
            index += 1
            continue
        current.append(char)
        index += 1
    pieces.append("".join(current))
    return [piece.strip() for piece in pieces if piece.strip()]


# --- statement grammar ---------------------------------------------------------------

# Lines that style or decorate the chart; they carry no plan content.
# A keyword followed by an edge is a node that happens to share the name, not styling.
_IGNORED = re.compile(
    r"(?:classDef|class|style|linkStyle|click|direction|subgraph|accTitle|accDescr)"
    r"(?:\s|:|\{|$)(?!\s*(?:--|==|-\.|~~~|&))"
)
_HEADER = re.compile(r"(?:graph|flowchart|flowchart-elk)(?:\s+(.*))?", re.DOTALL | re.IGNORECASE)
_EDGE_AHEAD = re.compile(r"\s*(?:--|==|-\.|~~~|&)")
_DIRECTIONS = frozenset({"TB", "TD", "BT", "RL", "LR", "<", ">", "^", "V"})

# Where an arrow (or a common fake arrow) begins, an id candidate ends.
# "--" inside an id ("a--b") is allowed unless it really starts an edge.
_ARROW_START = r"--(?=[->\s]|[xo](?:\s|$)|$)|==|-\.|~~~|<-|<=|->|=>|:::"
# Broad on purpose: any run that is not space, bracket, quote, pipe, & or an arrow is
# read as an id candidate, so every bad id reaches the slug message.
_ID_CANDIDATE = re.compile(rf"(?:(?!{_ARROW_START})[^\s\[\](){{}}<>&|\"→⟶⇒])+")
_CLASS_SUFFIX = re.compile(r":::[^\s&]*")

_ARROW = re.compile(
    r"""
    (?P<left><)?
    (?:
        -{2,}> | -{3,} | --[xo](?=\s|$)              # solid: -->, --->, ---, --x
      | ={2,}> | ={3,} | ==[xo](?=\s|$)              # thick: ==>, ===
      | -\.+-> | -\.+-(?!>)                          # dotted: -.->, -.-
      | ~{3,}                                        # invisible: ~~~
      | --\s+(?P<solid_label>\S.*?)\s*(?:-{2,}>|-{3,})   # -- text -->
      | ==\s+(?P<thick_label>\S.*?)\s*(?:={2,}>|={3,})   # == text ==>
      | -\.\s+(?P<dotted_label>\S.*?)\s*\.-+>?           # -. text .->
    )
    """,
    re.VERBOSE,
)
_PIPE_LABEL = re.compile(r"\s*\|")
_FAKE_ARROW = re.compile(r"->|=>|→|⟶|⇒|[—–]+>")

# (opener, closers), longest openers first; a failed long opener falls back to the
# next one that matches, so "[/usr/bin]" still reads as a plain box.
_SHAPES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("(((", (")))",)),
    ("([", ("])",)),
    ("[[", ("]]",)),
    ("[(", (")]",)),
    ("((", ("))",)),
    ("{{", ("}}",)),
    ("[/", ("/]", "\\]")),
    ("[\\", ("\\]", "/]")),
    ("[", ("]",)),
    ("(", (")",)),
    ("{", ("}",)),
    (">", ("]",)),
)


class _Cursor:
    """A position in one statement, with the physical line for error messages."""

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.pos = 0
        self.line = line

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def at_end(self) -> bool:
        return self.pos >= len(self.text)

    def rest(self) -> str:
        return self.text[self.pos :]

    def fail(self, message: str) -> PlanError:
        return PlanError(self.line, message)


# Mermaid's entity codes: "#quot;", "#amp;", "#9829;" (decimal), "#x2665;" (hex).
_ENTITY = re.compile(r"#([a-zA-Z][a-zA-Z0-9]{1,31}|[0-9]{1,7}|x[0-9a-fA-F]{1,6});")


def _decode_entity(match: re.Match[str]) -> str:
    code = match.group(1)
    if code.isdigit() or (code[0] == "x" and all(char in "0123456789abcdefABCDEF" for char in code[1:])):
        reference = f"&#{code};"
    else:
        reference = f"&{code};"
    decoded = html.unescape(reference)
    # An unknown name stays as written rather than vanishing.
    return match.group() if decoded == reference else decoded


def _clean_title(raw: str) -> str:
    """Strip a surrounding quote pair (and a markdown-string backtick pair); decode entities."""
    title = raw.strip()
    if len(title) >= 2 and title[0] == title[-1] == '"' and '"' not in title[1:-1]:
        title = title[1:-1].strip()
        if len(title) >= 2 and title[0] == title[-1] == "`":
            title = title[1:-1].strip()
    return _ENTITY.sub(_decode_entity, title).strip()


def _scan_title(text: str, start: int, closers: tuple[str, ...]) -> tuple[str, int] | str:
    """Read a title up to a closer at bracket depth 0; a string says what went wrong."""
    depth = 0
    index = start
    while index < len(text):
        if depth == 0:
            for closer in closers:
                if text.startswith(closer, index):
                    return text[start:index], index + len(closer)
        char = text[index]
        if char == '"':
            end = text.find('"', index + 1)
            if end < 0:
                return "has a quote that is never closed"
            index = end + 1
            continue
        if char in "([{":
            depth += 1
        elif char in ")]}" and depth > 0:
            depth -= 1
        index += 1
    return "never_closed"


def _read_title(cursor: _Cursor, node_id: str) -> tuple[str, str] | None:
    """Read the shape after an id, if any; return its cleaned title and its bracket pair."""
    save = cursor.pos
    cursor.skip_space()
    spaced = cursor.pos > save
    first_error: str | None = None
    for opener, closers in _SHAPES:
        if not cursor.text.startswith(opener, cursor.pos):
            continue
        if spaced and opener == ">":
            continue  # "a > b" is a mistyped edge, not the flag shape
        scanned = _scan_title(cursor.text, cursor.pos + len(opener), closers)
        if isinstance(scanned, tuple):
            raw, cursor.pos = scanned
            title = _clean_title(raw)
            if not title:
                raise cursor.fail(f'node "{node_id}" has an empty title — write {node_id}[Title]')
            closer = cursor.text[cursor.pos - len(closers[0]):cursor.pos]  # a shape's closers share a length
            return title, "" if opener == "[" else opener + closer
        if first_error is None:
            if scanned == "never_closed":
                first_error = (
                    f'the title of node "{node_id}" opens with "{opener}" but is never '
                    f'closed with "{closers[0]}" (brackets inside a title must balance, '
                    f'or wrap the title in quotes: {node_id}["…"])'
                )
            else:
                first_error = f'the title of node "{node_id}" {scanned}'
    if first_error is not None:
        raise cursor.fail(first_error)
    cursor.pos = save
    return None


_SPACE = re.compile(r"[ \t]+")


def _spaced_candidate(text: str, match: re.Match[str]) -> str:
    """The id as the writer meant it: "net balance[…]" is one id with a space, not two.

    Words separated only by spaces (no edge, no ``&``, no title in between) are joined,
    so such an id reaches the slug message instead of a confusing "expected an edge".
    """
    words = [match.group()]
    end = match.end()
    while True:
        gap = _SPACE.match(text, end)
        if gap is None:
            break
        if _ARROW.match(text, gap.end()) or _FAKE_ARROW.match(text, gap.end()):
            break
        word = _ID_CANDIDATE.match(text, gap.end())
        if word is None:
            break
        words.append(word.group())
        end = word.end()
    return " ".join(words)


def _read_node(cursor: _Cursor, after: str) -> tuple[str, tuple[str, str] | None]:
    """Read ``id`` plus an optional shaped title and ``:::class`` suffix."""
    cursor.skip_space()
    match = _ID_CANDIDATE.match(cursor.text, cursor.pos)
    if match is None:
        if cursor.at_end():
            raise cursor.fail(f"expected a node id {after}, but the statement ends there")
        fake = _FAKE_ARROW.match(cursor.text, cursor.pos)
        if fake is not None:
            raise cursor.fail(f'"{fake.group()}" is not an edge — write -->')
        raise cursor.fail(
            f'expected a node id {after}, found "{_shorten(cursor.rest())}" '
            "— write id[Title], e.g. a[First step]"
        )
    candidate = _spaced_candidate(cursor.text, match)
    if not is_slug(candidate):
        raise cursor.fail(_slug_message(candidate))
    cursor.pos = match.end()
    title = _read_title(cursor, candidate)
    suffix = _CLASS_SUFFIX.match(cursor.text, cursor.pos)
    if suffix is not None:
        cursor.pos = suffix.end()
    return candidate, title


def _read_arrow(cursor: _Cursor) -> str:
    """Consume one edge and return its label ('' when none); raise a precise error for a bad one."""
    match = _ARROW.match(cursor.text, cursor.pos)
    if match is None:
        fake = _FAKE_ARROW.match(cursor.text, cursor.pos)
        if fake is not None:
            raise cursor.fail(f'"{fake.group()}" is not an edge — write -->')
        raise cursor.fail(
            f'can\'t read "{_shorten(cursor.rest())}" — expected an edge such as '
            "-->, ==>, -.-> or -- label --> between two nodes"
        )
    if match.group("left"):
        raise cursor.fail(
            f'edge "{match.group().strip()}" points backwards or both ways — a plan edge '
            "runs from the earlier step to the later one: a --> b"
        )
    cursor.pos = match.end()
    label = match.group("solid_label") or match.group("thick_label") or match.group("dotted_label") or ""
    pipe = _PIPE_LABEL.match(cursor.text, cursor.pos)
    if pipe is not None:
        close = cursor.text.find("|", pipe.end())
        if close < 0:
            raise cursor.fail('an edge label opened with "|" is never closed with "|"')
        label = cursor.text[pipe.end():close]
        cursor.pos = close + 1
    return _clean_title(label)


@dataclass
class _Builder:
    """Accumulates nodes, titles and edges while the lines are read."""

    order: dict[str, int]  # id -> first appearance index
    titles: dict[str, tuple[str, int]]  # id -> (title, line)
    shapes: dict[str, str]  # id -> the bracket pair it was titled with ("" a plain box)
    labels: dict[tuple[str, str], str]  # edge -> its first label
    first_line: dict[str, int]  # id -> first line it appears on
    first_edge_line: dict[str, int]  # id -> first line it appears in an edge
    edges: dict[tuple[str, str], int]  # edge -> first line

    def mention(self, node_id: str, shaped: tuple[str, str] | None, line: int, in_edge: bool) -> None:
        if node_id not in self.order and len(self.order) >= MAX_NODES:
            raise PlanError(line, f"the plan has more than {MAX_NODES} nodes — a plan is a few dozen steps")
        self.order.setdefault(node_id, len(self.order))
        self.first_line.setdefault(node_id, line)
        if in_edge:
            self.first_edge_line.setdefault(node_id, line)
        if shaped is None:
            return
        title, shape = shaped
        known = self.titles.get(node_id)
        if known is None:
            self.titles[node_id] = (title, line)
            self.shapes[node_id] = shape
        elif known[0] != title:
            raise PlanError(
                line,
                f'node "{node_id}" is titled "{_shorten(title)}" here but '
                f'"{_shorten(known[0])}" on line {known[1]} — title a node once, then '
                "refer to it by its bare id",
            )

    def edge(self, before: str, after: str, line: int, label: str = "") -> None:
        if before == after:
            raise PlanError(line, f'node "{before}" has an edge to itself')
        self.edges.setdefault((before, after), line)
        if label:
            self.labels.setdefault((before, after), label)


def _parse_chain(cursor: _Cursor, builder: _Builder) -> None:
    """``group (edge group)*`` where a group is ``node (& node)*``."""
    groups: list[list[tuple[str, tuple[str, str] | None]]] = []
    arrow_labels: list[str] = []
    after = "at the start of the statement"
    while True:
        group = [_read_node(cursor, after)]
        cursor.skip_space()
        while cursor.text.startswith("&", cursor.pos):
            cursor.pos += 1
            group.append(_read_node(cursor, 'after "&"'))
            cursor.skip_space()
        groups.append(group)
        if cursor.at_end():
            break
        arrow_labels.append(_read_arrow(cursor))
        after = "after the edge"
    in_edge = len(groups) > 1
    # Count before expanding: "&" groups multiply, and the product is what costs.
    expanded = sum(len(left) * len(right) for left, right in itertools.pairwise(groups))
    if len(builder.edges) + expanded > MAX_EDGES:
        raise cursor.fail(
            f"the plan has more than {MAX_EDGES:,} edges once the \"&\" groups are expanded "
            f"(this line alone makes {expanded:,}) — a plan is a few dozen steps"
        )
    for group in groups:
        for node_id, title in group:
            builder.mention(node_id, title, cursor.line, in_edge)
    for (left, right), label in zip(itertools.pairwise(groups), arrow_labels, strict=False):
        for before, _ in left:
            for later, _ in right:
                builder.edge(before, later, cursor.line, label)


def _after_header(statement: str) -> str:
    """What is left of a statement once a ``graph``/``flowchart`` header is removed."""
    header = _HEADER.fullmatch(statement)
    if header is None:
        return statement
    rest = (header.group(1) or "").strip()
    if _EDGE_AHEAD.match(rest):
        return statement  # "graph --> b": a node that happens to be called graph
    word, _, tail = rest.replace("\t", " ").partition(" ")
    tail = tail.strip()
    if word.upper() in _DIRECTIONS:
        return tail
    if not tail and word.isalpha():
        return ""  # an unknown direction word: fine, keeltui lays the plan out itself
    return rest


# Other mermaid diagrams, named so the writer knows the plan must be a flowchart.
_OTHER_DIAGRAMS = {
    "sequencediagram": "a sequence diagram",
    "classdiagram": "a class diagram",
    "classdiagram-v2": "a class diagram",
    "statediagram": "a state diagram",
    "statediagram-v2": "a state diagram",
    "erdiagram": "an entity-relationship diagram",
    "gantt": "a Gantt chart",
    "pie": "a pie chart",
    "journey": "a user journey",
    "gitgraph": "a git graph",
    "mindmap": "a mind map",
    "timeline": "a timeline",
    "quadrantchart": "a quadrant chart",
    "requirementdiagram": "a requirement diagram",
    "c4context": "a C4 diagram",
    "c4container": "a C4 diagram",
    "c4component": "a C4 diagram",
    "c4dynamic": "a C4 diagram",
    "c4deployment": "a C4 diagram",
    "sankey-beta": "a Sankey diagram",
    "xychart-beta": "an XY chart",
    "block-beta": "a block diagram",
    "packet-beta": "a packet diagram",
    "kanban": "a kanban board",
    "architecture-beta": "an architecture diagram",
    "zenuml": "a ZenUML diagram",
    "radar-beta": "a radar chart",
}


def _other_diagram(statement: str) -> str | None:
    """What kind of non-flowchart diagram ``statement`` opens, or None."""
    word = statement.split(None, 1)[0] if statement.split() else ""
    if _EDGE_AHEAD.match(statement[len(word):]):
        return None  # "pie --> b": a node that happens to be called pie
    return _OTHER_DIAGRAMS.get(word.lower())


def _parse_statement(statement: str, line: int, builder: _Builder) -> None:
    if statement == "end" or _IGNORED.match(statement):
        return
    statement = _after_header(statement)
    if statement:
        _parse_chain(_Cursor(statement, line), builder)


def _content_lines(lines: list[str]) -> list[tuple[int, str]]:
    """Number the lines and drop code fences and a YAML front matter block."""
    numbered = list(enumerate(lines, start=1))
    out: list[tuple[int, str]] = []
    in_front_matter = False
    front_matter_start = 0
    seen_content = False
    for number, text in numbered:
        stripped = text.strip()
        if stripped.startswith("```"):
            continue  # models often wrap the block in a ```mermaid fence
        if in_front_matter:
            if stripped == "---":
                in_front_matter = False
            continue
        if stripped == "---" and not seen_content:
            in_front_matter, front_matter_start = True, number
            continue
        if stripped and not stripped.startswith("%%"):
            seen_content = True
        out.append((number, text))
    if in_front_matter:
        raise PlanError(front_matter_start, 'front matter opened with "---" is never closed')
    return out


def _find_cycle(edges: dict[tuple[str, str], int]) -> tuple[list[str], int] | None:
    """The first edge (in source order) that closes a cycle, with the cycle's nodes."""
    adjacency: dict[str, list[str]] = {}
    for (before, after), line in edges.items():
        # Does "after" already reach "before"? Then this edge closes a loop.
        parents: dict[str, str | None] = {after: None}
        frontier = [after]
        while frontier and before not in parents:
            node = frontier.pop()
            for nxt in adjacency.get(node, ()):
                if nxt not in parents:
                    parents[nxt] = node
                    frontier.append(nxt)
        if before in parents:
            path: list[str] = []
            step: str | None = before
            while step is not None:
                path.append(step)
                step = parents[step]
            path.reverse()  # after … before
            return [*path, after], line
        adjacency.setdefault(before, []).append(after)
    return None


def _parse(text: str) -> Plan:
    if len(text) > MAX_PLAN_CHARS:
        raise PlanError(
            1,
            f"the plan is too long ({len(text):,} characters; at most {MAX_PLAN_CHARS:,}) "
            "— a plan is a few dozen steps",
        )
    builder = _Builder(order={}, titles={}, shapes={}, labels={}, first_line={}, first_edge_line={}, edges={})
    first = True
    for number, line in _content_lines(_split_lines(text)):
        for statement in _statements(line):
            if first:
                first = False
                kind = _other_diagram(statement)
                if kind is not None:
                    raise PlanError(
                        number,
                        f'"{_shorten(statement.split()[0])}" starts {kind}, which keeltui cannot '
                        'use — a plan is a flowchart: start with "graph TD" and write a[Step] --> b[Next]',
                    )
            _parse_statement(statement, number, builder)

    if not builder.order:
        raise PlanError(1, "the plan is empty — write at least one node, e.g. a[First step]")

    # A bare id never titled is its own title (mermaid draws "n11 --> n12" as two boxes).
    nodes = tuple(
        PlanNode(node_id, *builder.titles[node_id], builder.shapes.get(node_id, ""))
        if node_id in builder.titles else PlanNode(node_id, node_id, builder.first_line[node_id])
        for node_id in builder.order
    )
    edges = tuple(builder.edges)
    if len(_kahn(tuple(builder.order), edges)) != len(nodes):
        found = _find_cycle(builder.edges)
        if found is not None:  # always found when Kahn stalls; guarded for safety
            cycle, at = found
            raise PlanError(
                at,
                f"the plan has a cycle: {' → '.join(cycle)} — remove one of these edges",
            )
    labels = tuple((before, after, label) for (before, after), label in builder.labels.items())
    return Plan(nodes=nodes, edges=edges, labels=labels)


def parse_plan(text: str) -> Plan:
    """Parse mermaid flowchart text into a :class:`Plan`.

    Raises :class:`PlanError` (and nothing else, for any ``str``) naming the first
    problem and its 1-based line.
    """
    if not isinstance(text, str):
        raise PlanError(1, f"the plan must be text, not {type(text).__name__}")
    try:
        return _parse(text)
    except PlanError:
        raise
    except Exception as exc:
        # A bug here must not crash the tutor turn; the tests assert this never fires.
        name = type(exc).__name__
        raise PlanError(1, f"internal parser error ({name}); please report it") from exc


# --- rendering for `keeltui plan check` ------------------------------------------------


def plan_summary(plan: Plan) -> str:
    """Plain text: the nodes in teaching order with their titles, then the edges."""
    order = plan.topological_order()
    titles = {node.id: node.title for node in plan.nodes}
    width = max(len(node_id) for node_id in order) if order else 0
    lines = [
        f"plan ok: {len(plan.nodes)} node{'s' if len(plan.nodes) != 1 else ''}, "
        f"{len(plan.edges)} edge{'s' if len(plan.edges) != 1 else ''}",
        "",
        "nodes (teaching order):",
    ]
    for position, node_id in enumerate(order, start=1):
        lines.append(f"  {position:>2}. {node_id.ljust(width)}  {titles[node_id]}")
    lines.append("")
    lines.append("edges (before → after):")
    if plan.edges:
        lines.extend(f"  {before} → {after}" for before, after in plan.edges)
    else:
        lines.append("  (none)")
    return "\n".join(lines)


def check_plan_command(source_text: str) -> tuple[int, str]:
    """What ``keeltui plan check`` prints: ``(0, summary)`` or ``(1, "line N: …")``."""
    try:
        plan = parse_plan(source_text)
    except PlanError as err:
        return 1, str(err)
    return 0, plan_summary(plan)
