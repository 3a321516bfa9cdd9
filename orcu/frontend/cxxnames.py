"""C names that CUDA C++ takes for itself, and what the generated code calls them instead.

C lets a program name a variable ``new``, a parameter ``class``, a function ``max`` or ``uint``,
a type ``float2``: C++ reserves the first as keywords, and CUDA's and C++'s headers declare the
others, so the same text does not compile as CUDA C++ (or means another thing). Each such name
the file declares is renamed in the generated code, by one macro after every header
(``#define class orcu_c_class``): kernels, host code, the harness's values and the tuned file's
own text all spell it alike from there on, and no header is touched. A function the file
exports keeps its name (C callers link against it); the file's own macros are the user's and
stay. The keywords and CUDA names orcu's own generated code writes after that point
(``template``, ``typename``, ``dim3``, ``threadIdx``, ...) and C++'s alternative operators
(``and``, ``or``: no macro may be named so) cannot be renamed so: a declaration of one is
refused where it stands.
"""

from __future__ import annotations

from pycparser import c_ast

from orcu.errors import AnalysisError, Location
from orcu.frontend.cparse import PRELUDE_DECLARATIONS, file_macros
from orcu.frontend.source import SourceFile

CXX_KEYWORDS = frozenset(
    [
        "alignas",
        "alignof",
        "asm",
        "bool",
        "catch",
        "char16_t",
        "char32_t",
        "char8_t",
        "class",
        "concept",
        "consteval",
        "constexpr",
        "constinit",
        "const_cast",
        "co_await",
        "co_return",
        "co_yield",
        "decltype",
        "delete",
        "dynamic_cast",
        "explicit",
        "export",
        "false",
        "friend",
        "mutable",
        "namespace",
        "new",
        "noexcept",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "reinterpret_cast",
        "requires",
        "static_assert",
        "static_cast",
        "template",
        "this",
        "thread_local",
        "throw",
        "true",
        "try",
        "typeid",
        "typename",
        "using",
        "virtual",
        "wchar_t",
    ]
)
ALTERNATIVE_TOKENS = frozenset(
    ["and", "and_eq", "bitand", "bitor", "compl", "not", "not_eq", "or", "or_eq", "xor", "xor_eq"]
)
# What orcu's generated code (prelude, kernels, host functions, harness) writes after the renames:
# C++'s keywords, and CUDA's names.
GENERATED_WORDS = frozenset(
    [
        "asm",
        "bool",
        "decltype",
        "false",
        "namespace",
        "nullptr",
        "operator",
        "static_assert",
        "static_cast",
        "template",
        "true",
        "typename",
        "using",
    ]
)
GENERATED_NAMES = frozenset(["dim3", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"])
_VECTOR_BASES = [
    "char",
    "uchar",
    "short",
    "ushort",
    "int",
    "uint",
    "long",
    "ulong",
    "longlong",
    "ulonglong",
    "float",
    "double",
]
# Names CUDA's headers (and C++'s, which define _GNU_SOURCE) declare at file scope, which C's do not.
CUDA_NAMES = frozenset(
    [f"{base}{n}" for base in _VECTOR_BASES for n in range(1, 5)]
    + [f"make_{base}{n}" for base in _VECTOR_BASES for n in range(1, 5)]
    + [
        "dim3",
        "uint",
        "ushort",
        "ulong",
        "uchar",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "warpSize",
        "min",
        "max",
        "umin",
        "umax",
        "llmin",
        "llmax",
        "ullmin",
        "ullmax",
        "rsqrt",
        "rsqrtf",
        "rcbrt",
        "rcbrtf",
        "sinpi",
        "sinpif",
        "cospi",
        "cospif",
        "sincos",
        "sincosf",
        "sincospi",
        "sincospif",
        "exp10",
        "exp10f",
        "normcdf",
        "normcdff",
        "normcdfinv",
        "normcdfinvf",
        "erfinv",
        "erfinvf",
        "erfcinv",
        "erfcinvf",
        "erfcx",
        "erfcxf",
        "norm",
        "normf",
        "norm3d",
        "norm3df",
        "norm4d",
        "norm4df",
        "rnorm",
        "rnormf",
        "rnorm3d",
        "rnorm3df",
        "rnorm4d",
        "rnorm4df",
        "rhypot",
        "rhypotf",
        "cyl_bessel_i0",
        "cyl_bessel_i0f",
        "cyl_bessel_i1",
        "cyl_bessel_i1f",
        "saturate",
        "mul24",
        "umul24",
        "mulhi",
        "umulhi",
        "mul64hi",
        "umul64hi",
    ]
)

_REFUSED = {
    **{name: "C++ operator" for name in ALTERNATIVE_TOKENS},
    **{name: "C++ keyword" for name in GENERATED_WORDS},
    **{name: "name of CUDA's" for name in GENERATED_NAMES},
}


def renamed(name: str) -> str:
    return f"orcu_c_{name}"


_DECLARING = (c_ast.Decl, c_ast.Typedef, c_ast.Enumerator, c_ast.Struct, c_ast.Union, c_ast.Enum)


def _declarations(tree: c_ast.Node):
    """(name, coord) of every name the tree declares: objects, functions, parameters, fields,
    typedefs, tags and enumerators."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, _DECLARING) and node.name:
            yield node.name, node.coord
        stack.extend(child for _, child in node.children())


def cxx_renames(src: SourceFile, tree: c_ast.FileAST, functions) -> tuple[tuple[str, str], ...]:
    """(name, what the generated C++ calls it) for each name of the file that CUDA C++ takes;
    AnalysisError at the declaration of one that cannot be renamed (see the module's text).
    ``functions``: (start, end, definition) of the file's functions (cparse's spans)."""
    macros = {head.split("(")[0] for head in file_macros(src, parameters=True)}
    exported = {f.decl.name for _, _, f in functions if "static" not in f.decl.storage}  # C callers name them
    out: dict[str, str] = {}
    for name, coord in _declarations(c_ast.FileAST(tree.ext[PRELUDE_DECLARATIONS:])):
        if coord is None or name in macros or name in exported:
            continue
        if name in _REFUSED and coord.file == src.path:
            raise src.error_at(
                Location(coord.file, coord.line, coord.column or 1),
                f"'{name}' is a {_REFUSED[name]} that orcu's generated CUDA C++ uses itself: "
                "name it otherwise in the C code",
                AnalysisError,
            )
        if name in CXX_KEYWORDS or name in CUDA_NAMES:
            out[name] = renamed(name)
    return tuple(sorted(out.items()))
