"""C's library as the generated CUDA C++ must call it, so that the user's C keeps its meaning.

C++ (and CUDA's device library) overloads the functions of <math.h> and <stdlib.h> by the type
of their arguments, where C converts each argument to the one parameter type its prototype
declares: ``abs(x)`` of a double is ``abs((int)x)`` in C and a floating ``abs`` in C++,
``exp(x)`` of a float is the double ``exp`` in C and ``expf`` in C++ (inf where C gets 1e43),
``abs(v)`` of a long long keeps 64 bits in C++ and 32 in C. The same text compiles in both and
computes two things. orcu's generated code therefore says, once, before the user's code, what C
says: each such function a function-like macro that converts its arguments to C's parameter
types before C++ picks an overload (``#define exp(x) exp((double)(x))``; the inner name is not
expanded again). A file that includes <tgmath.h> asks for type-generic calls, which the
overloads give: there the floating-point functions are left to them.

This module also says which standard headers a C file includes (the reference's C file
includes them, and no others: orcu's are not the user's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields

from orcu.frontend.cparse import local_headers
from orcu.frontend.ctext import blank_comments
from orcu.frontend.generated import blank_spans
from orcu.frontend.source import SourceFile
from orcu.frontend.types import cxx_spellings

# The headers of ISO C (C17), the ones a reference compiled as C may include from the user's
# file: a platform's or a library's (<omp.h>, <mpi.h>) the region's code does not need.
C_HEADERS = frozenset(
    [
        "assert.h",
        "complex.h",
        "ctype.h",
        "errno.h",
        "fenv.h",
        "float.h",
        "inttypes.h",
        "iso646.h",
        "limits.h",
        "locale.h",
        "math.h",
        "setjmp.h",
        "signal.h",
        "stdalign.h",
        "stdarg.h",
        "stdatomic.h",
        "stdbool.h",
        "stddef.h",
        "stdint.h",
        "stdio.h",
        "stdlib.h",
        "stdnoreturn.h",
        "string.h",
        "tgmath.h",
        "threads.h",
        "time.h",
        "uchar.h",
        "wchar.h",
        "wctype.h",
    ]
)

_SYSTEM_INCLUDE = re.compile(r"^[ \t]*#[ \t]*include[ \t]*<([^>\n]+)>", re.MULTILINE)


def _c_texts(src: SourceFile) -> list[str]:
    """The C the file's own headers and the file hold, comments blanked, and a tuned file's
    generated blocks too (orcu's includes and macros are not the user's)."""
    return [blank_comments(t) for _, t in [*local_headers(src.path, src.text), (src.path, blank_spans(src.text))]]


def c_headers(src: SourceFile) -> tuple[str, ...]:
    """The standard C headers the file and its own headers include, in order, each once."""
    found: list[str] = []
    for text in _c_texts(src):
        found += [h.strip() for h in _SYSTEM_INCLUDE.findall(text) if h.strip() in C_HEADERS]
    return tuple(dict.fromkeys(found))


def type_generic(src: SourceFile) -> bool:
    """Whether the file asks for C's type-generic math (<tgmath.h>)."""
    return "tgmath.h" in c_headers(src)


# Each C library function that C++ or CUDA overloads, with C's parameter types: by family, the
# double function, its float (f) and long double (l) forms. Pointer parameters (frexp's int *,
# modf's double *) take no conversion: C++ would refuse any other type there, as C warns.
_D, _F, _L, _I, _LI, _P = "double", "float", "long double", "int", "long", None
_MATH: dict[str, tuple] = {
    **{
        f: (_D,)
        for f in [
            "acos",
            "asin",
            "atan",
            "cos",
            "sin",
            "tan",
            "acosh",
            "asinh",
            "atanh",
            "cosh",
            "sinh",
            "tanh",
            "exp",
            "exp2",
            "expm1",
            "log",
            "log10",
            "log1p",
            "log2",
            "logb",
            "cbrt",
            "fabs",
            "sqrt",
            "erf",
            "erfc",
            "lgamma",
            "tgamma",
            "ceil",
            "floor",
            "nearbyint",
            "rint",
            "round",
            "trunc",
        ]
    },
    **{
        f: (_D, _D)
        for f in ["atan2", "pow", "hypot", "fmod", "remainder", "copysign", "nextafter", "fdim", "fmax", "fmin"]
    },
    "fma": (_D, _D, _D),
    "ldexp": (_D, _I),
    "scalbn": (_D, _I),
    "scalbln": (_D, _LI),
    "frexp": (_D, _P),
    "modf": (_D, _P),
    "remquo": (_D, _D, _P),
    "ilogb": (_D,),
    "lrint": (_D,),
    "llrint": (_D,),
    "lround": (_D,),
    "llround": (_D,),
}
_INTEGER: dict[str, tuple] = {
    "abs": (_I,),
    "labs": (_LI,),
    "llabs": ("long long",),
    "div": (_I, _I),
    "ldiv": (_LI, _LI),
    "lldiv": ("long long", "long long"),
}


def _forms() -> dict[str, tuple]:
    """Every function with its parameter types: the double family, its float and long double
    forms (``expf`` takes floats: a double argument is rounded, as C does)."""
    out = dict(_INTEGER)
    for name, params in _MATH.items():
        out[name] = params
        for suffix, kind in (("f", _F), ("l", _L)):
            out[name + suffix] = tuple(kind if p == _D else p for p in params)
    return out


C_FUNCTIONS: dict[str, tuple] = _forms()


# a macro's definition, or a function's (its parameter list, then its body)
_DEFINES = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)|\b([A-Za-z_]\w*)\s*\([^;{}()]*\)\s*\{", re.M)


def conversion_macros(src: SourceFile) -> tuple[tuple[str, str], ...]:
    """(the macro's head, its body) for each C library function the file names: its arguments
    converted to C's parameter types (pointer parameters as they are). After <tgmath.h> the
    floating-point functions are type-generic in C too, and keep C++'s overloads."""
    texts = _c_texts(src)
    named = {name for t in texts for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", t)}
    # the file's own (a macro, or a function it defines): C calls that, as the generated code does
    own = {m.group(1) or m.group(2) for t in texts for m in _DEFINES.finditer(t)}
    generic = type_generic(src)
    out = []
    for name, params in C_FUNCTIONS.items():
        if name not in named or name in own or (generic and name not in _INTEGER):
            continue
        args = [f"orcu_{k}" for k in range(len(params))]
        body = ", ".join(a if p is None else f"({p})({a})" for a, p in zip(args, params))
        out.append((f"{name}({', '.join(args)})", f"{name}({body})"))
    return tuple(out)


@dataclass(frozen=True)
class CMeaning:
    """What generated CUDA C++ needs to keep a file's C meaning, computed once per file: its C
    headers, C's library as C calls it (conversion_macros), C's words C++ spells otherwise
    (``restrict``) and the file's names CUDA C++ takes (frontend/cxxnames.py)."""

    c_headers: tuple[str, ...]
    c_library: tuple[tuple[str, str], ...]
    spellings: tuple[tuple[str, str], ...]
    renames: tuple[tuple[str, str], ...]

    @classmethod
    def of(cls, src: SourceFile, renames: tuple[tuple[str, str], ...]) -> CMeaning:
        return cls(c_headers(src), conversion_macros(src), tuple(cxx_spellings(src.text)), renames)

    def template_args(self) -> dict[str, tuple]:
        """The fields by name: what header.cu.j2 and harness.cu.j2 read."""
        return {f.name: getattr(self, f.name) for f in fields(self)}
