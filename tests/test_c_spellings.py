"""C words that C++ spells otherwise (``restrict``, ``_Bool``) in the user's code: the tuned
file, its C header and the harness say them as C++ does, and the file still builds as C."""

import subprocess

import pytest
from conftest import write

from orcu.driver import api

AXPY = """{bool_include}void axpy(int n, {t} a, const {t} *{q} x, {t} *{q} y{flag})
{{
    int i;
    /*@ begin PerfTuning (
    def performance_params {{ param TC[] = [32, 64]; }}
    def input_params {{ param n[] = [1000, 77]; }}
    def input_vars {{ decl dynamic {t} x[n] = random; decl dynamic {t} y[n] = random; decl {t} a = 2; }}
    ) @*/
    /*@ begin Loop(transform CUDA(threadCount=TC)
    for (i = 0; i < n; i++) y[i] = a * x[i] + y[i];
    ) @*/
    for (i = 0; i < n; i++) y[i] = a * x[i] + y[i];
    /*@ end @*/
    /*@ end @*/
}}
"""


@pytest.mark.parametrize("t", ["float", "double", "int"])
@pytest.mark.parametrize("q, flag", [("restrict", ""), ("restrict", ", _Bool unused")])
def test_restrict_pointers_tune_and_the_tuned_file_builds_for_c_callers(in_tmp, t, q, flag):
    write(in_tmp / "axpy.c", AXPY.format(t=t, q=q, flag=flag, bool_include=""))
    result = api.tune("axpy.c", backend="emulate", progress=False)
    assert all(r.statuses == {"ok": 2} for r in result.regions), [r.statuses for r in result.regions]
    assert (in_tmp / "axpy.tuned.cu").exists()
    write(in_tmp / "caller.c", '#include "axpy.tuned.h"\nint main(void) { return 0; }\n')
    proc = subprocess.run(["gcc", "-std=c99", "-c", "caller.c"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
