"""The shape of the package, measured on its source with ast: the import graph has no circle, no
stage imports a later one, the top level stays small, and modules and functions stay readable.

The stages, in the order a tune runs through them (docs/design.md): each may import its own
modules and those of earlier stages, never a later one. The search strategies come first: a
library of their own that imports nothing else of orcu (the spec checks the names they register). Every import counts, those inside
functions and under TYPE_CHECKING too: a lazy import is still a dependency."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "orcu"
STAGES = (
    "kinds",
    "search",
    "frontend",
    "spec",
    "analysis",
    "tsg",
    "planning",
    "codegen",
    "execution",
    "search",
    "driver",
    "face",
)
# The top level: the package face (orcu/__init__, __main__) and the small kinds every stage shares.
KINDS = {"orcu.errors", "orcu.version", "orcu.files", "orcu.device"}
MAX_TOP_LEVEL = 8
MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80  # lines as ruff formats them, at most 120 characters
# Declarative tables, exempt from the function limit: argparse's parser, one argument a statement.
TABLES = {("orcu.driver.cli", "build_parser")}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text()) for name, path in MODULES.items()}


def imported(name: str) -> set[str]:
    """The orcu modules a module imports (a package's __init__ counts as the package)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            candidates = [base] + [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        found |= {c for c in candidates if c in MODULES and c != name}
    return found


GRAPH = {name: imported(name) for name in MODULES}


def stage(name: str) -> str:
    parts = name.split(".")
    if name in ("orcu", "orcu.__main__"):
        return "face"
    if name in KINDS:
        return "kinds"
    assert len(parts) >= 2 and parts[1] in STAGES, f"{name} belongs to no stage: add it to one (STAGES)"
    return parts[1]


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(graph[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_module_imports_itself_back():
    assert circles(GRAPH) == []


def test_no_stage_imports_a_later_one():
    upward = sorted(
        f"{a} -> {b}" for a, deps in GRAPH.items() for b in deps if STAGES.index(stage(b)) > STAGES.index(stage(a))
    )
    assert upward == []


def test_no_circle_between_stages():
    graph = {s: set() for s in STAGES}
    for a, deps in GRAPH.items():
        graph[stage(a)] |= {stage(b) for b in deps if stage(b) != stage(a)}
    assert circles(graph) == []


def test_the_top_level_is_small():
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL, top


def test_modules_stay_readable():
    long = {name for name, path in MODULES.items() if len(path.read_text().splitlines()) > MAX_MODULE_LINES}
    assert long == set(), long


def test_functions_stay_readable():
    long = {
        (name, node.name)
        for name, tree in TREES.items()
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    }
    assert long - TABLES == set(), sorted(long - TABLES)


def test_the_measures_see_a_circle_and_an_upward_import():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert stage("orcu.driver.api") == "driver" and stage("orcu.errors") == "kinds" and stage("orcu") == "face"
    assert "orcu.driver.report" in GRAPH["orcu.driver.api"]  # imported inside functions only: it counts


def backend_name_tests(tree: ast.AST) -> list[int]:
    """Lines comparing a backend (a name or attribute that says backend) with a backend's name."""
    names = {"cuda", "emulate", "model"}

    def constants(node):
        items = node.elts if isinstance(node, (ast.Tuple, ast.List, ast.Set)) else [node]
        return {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            if any(constants(o) & names for o in operands) and any("backend" in ast.unparse(o) for o in operands):
                found.append(node.lineno)
    return found


def test_no_module_but_the_registry_tests_a_backends_name():
    found = {
        name: lines
        for name, tree in TREES.items()
        if name != "orcu.execution.backends"
        if (lines := backend_name_tests(tree))
    }
    assert found == {}
    assert backend_name_tests(ast.parse('if runner.backend == "model": pass\nx = backend in ("emulate", "cuda")')) == [
        1,
        2,
    ]
