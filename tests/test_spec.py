from conftest import diagnose, write

from orcu.frontend.source import SourceFile
from orcu.planning.program import load
from orcu.spec.language import parse_perftuning

FULL = """\
let base = 32;
def performance_params {
    let mult = [1, 2, 4];
    param TC[] = [base * m for m in mult];
    param CF[] = map(join, product(['', '-O3'], ['-lineinfo']));
    param ONE = 'fixed';
    constraint small = TC <= 64 or CF == ' -lineinfo';
}
def input_params {
    param N[] = [10, 20];
    param M = 3;
    constraint order = N > M;
}
def input_vars {
    decl static double A[N][M] = random;
    decl dynamic float v[N] = 0;
    decl int offs[M] = {-1, 0, N};
    decl unsigned int k = N + 1;
    decl double w[N];
}
def build {
    arg build_command = 'nvcc -O3 @CF';
    arg libs = '-lm';
    arg prebuild_command = 'true';
    arg postbuild_command = 'true';
}
def performance_counter { arg method = 'basic timer'; arg repetitions = 7; }
def search {
    arg algorithm = 'Simplex';
    arg total_runs = 50;
    arg time_limit = 2.5;
    arg resume = True;
    arg simplex_reflection_coef = 1.5;
}
def validation { arg validation_file = 'ref.dat'; }
def cmdline_params {
    option "-n" = [1, 2];
    param threads[] = [4, 8];
}
"""


def spec_of(text):
    src = SourceFile("t.c", text)
    return parse_perftuning(src, 0, len(text))


def test_every_statement_form():
    spec = spec_of(FULL)
    assert spec.lets["base"] == 32 and spec.lets["mult"] == [1, 2, 4]
    tc, cf, one = spec.performance_params
    assert (tc.name, tc.values, tc.axis) == ("TC", (32, 64, 128), True)
    assert cf.values == (" -lineinfo", "-O3 -lineinfo")  # join(a, b) puts one space between, as Orio's does
    assert (one.values, one.axis) == (("fixed",), False)
    assert (tc.loc.line, tc.loc.col) == (4, 11)
    assert [c.name for c in spec.performance_constraints] == ["small"]
    assert [p.name for p in spec.input_params] == ["N", "M"] and spec.input_params[1].values == (3,)
    a, v, offs, k, w = spec.input_vars
    assert (a.name, a.ctype, a.storage, [d.text for d in a.dims], a.init) == (
        "A",
        "double",
        "static",
        ["N", "M"],
        "random",
    )
    assert (v.ctype, v.storage, v.init, v.init_expr.evaluate({})) == ("float", "dynamic", "value", 0)
    assert (offs.init, offs.init_expr.evaluate({"N": 10})) == ("list", [-1, 0, 10])
    assert (offs.init_expr.loc.line, offs.init_expr.loc.col) == (17, 24)
    assert (k.ctype, k.is_array, k.init_expr.evaluate({"N": 10})) == ("unsigned int", False, 11)
    assert (w.init, w.init_expr) == ("none", None)
    assert spec.build_command == "nvcc -O3 @CF"
    assert spec.arg("build", "libs") == "-lm"
    assert spec.repetitions == 7
    assert spec.search_algorithm == "Simplex"
    assert spec.search_options() == {"reflection_coef": 1.5}
    assert spec.arg("search", "time_limit") == 2.5 and spec.arg("search", "resume") is True
    assert spec.arg("validation", "validation_file") == "ref.dat"
    assert [(o.flag, o.values) for o in spec.cmdline] == [("-n", (1, 2)), ("threads", (4, 8))]


def test_comments_and_multiline_expressions():
    spec = spec_of("def performance_params {  # the params\n param X[] = [1,  # one\n 2];\n}\n")
    assert spec.performance_params[0].values == (1, 2)


def perf(body):
    return (
        f"void f(int n, double *a) {{\n  int i;\n  /*@ begin PerfTuning (\n{body}\n  ) @*/\n"
        "  /*@ begin Loop(transform CUDA()\n  for (i = 0; i < n; i++) a[i] = 0;\n  ) @*/\n"
        "  for (i = 0; i < n; i++) a[i] = 0;\n  /*@ end @*/\n  /*@ end @*/\n}\n"
    )


def test_unknown_section_suggests(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_param { param T[] = [1]; }")) == (
        "t.c:4:7: error: unknown section 'performance_param' (did you mean 'performance_params'?)\n"
        "  def performance_param { param T[] = [1]; }\n"
        "      ^"
    )


def test_unknown_argument_suggests(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_counter { arg repetition = 3; }")) == (
        "t.c:4:33: error: unknown argument 'repetition' in section 'performance_counter' (did you mean 'repetitions'?)\n"
        "  def performance_counter { arg repetition = 3; }\n"
        "                                ^"
    )


def test_argument_type_checked(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_counter { arg repetitions = 'x'; }")) == (
        "t.c:4:47: error: argument 'repetitions' must be a positive integer, got 'x'\n"
        "  def performance_counter { arg repetitions = 'x'; }\n"
        "                                              ^"
    )


def test_unknown_search_algorithm(in_tmp):
    assert diagnose(in_tmp, perf("  def search { arg algorithm = 'Greedy'; }")).startswith(
        "t.c:4:32: error: argument 'algorithm' must be one of Annealing, Exhaustive, Generational, Genetic, Mlsearch, Multistart, Portfolio, Random, Randomlocal, Simplex, TSG, got 'Greedy'"
    )


def test_missing_semicolon(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_params { param T[] = [1, 2] }")) == (
        "t.c:4:46: error: expected ';' after parameter 'T'\n"
        "  def performance_params { param T[] = [1, 2] }\n"
        "                                             ^"
    )


def test_undefined_name_in_constraint(in_tmp):
    assert diagnose(
        in_tmp, perf("  def performance_params {\n    param TC[] = [1];\n    constraint c = TC * BCC > 0;\n  }")
    ) == (
        "t.c:6:25: error: undefined name 'BCC' in constraint 'c'\n"
        "    constraint c = TC * BCC > 0;\n"
        "                        ^"
    )


def test_undefined_name_suggests_close_one(in_tmp):
    assert diagnose(
        in_tmp, perf("  def performance_params {\n    param TC[] = [1];\n    constraint c = TX > 0;\n  }")
    ).startswith("t.c:6:20: error: undefined name 'TX' in constraint 'c' (did you mean 'TC'?)")


def test_attribute_access_in_spec(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_params { param T[] = ''.join(['1']); }")) == (
        "t.c:4:43: error: attribute access ('.join') is not allowed in a tuning expression\n"
        "  def performance_params { param T[] = ''.join(['1']); }\n"
        "                                          ^"
    )


def test_import_attempt_in_spec(in_tmp):
    assert diagnose(in_tmp, perf("  let os = __import__('os');")) == (
        "t.c:4:12: error: name '__import__' is not allowed: names starting with '__' are reserved\n"
        "  let os = __import__('os');\n"
        "           ^"
    )


def test_statement_outside_section(in_tmp):
    assert diagnose(in_tmp, perf("  param T[] = [1];")) == (
        "t.c:4:3: error: 'param' must be inside a 'def' section\n  param T[] = [1];\n  ^"
    )


def test_statement_in_wrong_section(in_tmp):
    assert diagnose(in_tmp, perf("  def build { param T[] = [1]; }")) == (
        "t.c:4:15: error: 'param' is not allowed in section 'build' (it holds 'arg', 'let')\n"
        "  def build { param T[] = [1]; }\n"
        "              ^"
    )


def test_duplicate_parameter(in_tmp):
    assert diagnose(
        in_tmp, perf("  def performance_params { param T[] = [1]; }\n  def input_params { param T[] = [2]; }")
    ) == (
        "t.c:5:28: error: 'T' is already defined on line 4\n"
        "  def input_params { param T[] = [2]; }\n"
        "                           ^"
    )


def test_axis_needs_a_list(in_tmp):
    assert diagnose(in_tmp, perf("  def performance_params { param T[] = 5; }")) == (
        "t.c:4:40: error: parameter 'T[]' needs a list of values, got int\n"
        "  def performance_params { param T[] = 5; }\n"
        "                                       ^"
    )


def test_decl_errors(in_tmp):
    assert diagnose(in_tmp, perf("  def input_vars { decl static x[10] = random; }")) == (
        "t.c:4:32: error: missing type in the declaration of 'x'\n"
        "  def input_vars { decl static x[10] = random; }\n"
        "                               ^"
    )
    assert diagnose(in_tmp, perf("  def input_vars { decl dobule x[10] = random; }")).startswith(
        "t.c:4:25: error: unknown type 'dobule' in declaration of 'x' (did you mean 'double'?)"
    )
    assert diagnose(in_tmp, perf("  def input_vars { decl double x[m] = 0; }")).startswith(
        "t.c:4:34: error: undefined name 'm' in the size of 'x'"
    )


def test_unclosed_section(in_tmp):
    assert diagnose(in_tmp, perf("  def build { arg libs = '-lm';")) == (
        "t.c:4:7: error: section 'build' is never closed: expected '}'\n  def build { arg libs = '-lm';\n      ^"
    )


YAML = """\
let:
  sms: 132
performance_params:
  TC: range(64, 257, 64)
  BC: "[sms, 2 * sms]"
  PL: [16, 48]
  constraint:
    fits: TC * BC <= 256 * sms
input_params:
  n: [4096]
input_vars:
  - dynamic float x[n] = random
  - decl float alpha = 0.5;
performance_counter:
  repetitions: 3
search:
  algorithm: Random
  total_runs: 4
"""


def test_yaml_sidecar_gives_the_same_spec(in_tmp):
    write(
        in_tmp / "s.c",
        perf("")
        .replace("/*@ begin PerfTuning (\n\n  ) @*/\n", "")
        .replace("  /*@ end @*/\n}", "}")
        .replace("CUDA()", "CUDA(threadCount=TC)"),
    )
    write(in_tmp / "s.c.orcu.yaml", YAML)
    spec = load("s.c").spec
    assert [(p.name, p.values) for p in spec.performance_params] == [
        ("TC", (64, 128, 192, 256)),
        ("BC", (132, 264)),
        ("PL", (16, 48)),
    ]
    assert spec.performance_constraints[0].expr.evaluate({"TC": 256, "BC": 132, "sms": 132}) is True
    assert [d.name for d in spec.input_vars] == ["x", "alpha"]
    assert spec.input_vars[0].storage == "dynamic"
    assert spec.repetitions == 3 and spec.search_algorithm == "Random"
    assert spec.path == "s.c.orcu.yaml"


def test_yaml_errors_name_the_key(in_tmp):
    c_file = perf("").replace("/*@ begin PerfTuning (\n\n  ) @*/\n", "").replace("  /*@ end @*/\n}", "}")
    assert diagnose(in_tmp, c_file, name="s.c", s__c__orcu__yaml="performance_param:\n  TC: [1]\n") == (
        "s.c.orcu.yaml:1:1: error: unknown section 'performance_param' (did you mean 'performance_params'?)\n"
        "performance_param:\n^"
    )
    assert diagnose(in_tmp, c_file, name="s.c", s__c__orcu__yaml="search:\n  algoritm: Random\n") == (
        "s.c.orcu.yaml:2:3: error: unknown argument 'algoritm' in section 'search' (did you mean 'algorithm'?)\n"
        "  algoritm: Random\n  ^"
    )
    assert diagnose(in_tmp, c_file, name="s.c", s__c__orcu__yaml="performance_params:\n  TC: range(1, x)\n") == (
        "s.c.orcu.yaml:2:16: error: undefined name 'x' in parameter 'TC'\n  TC: range(1, x)\n               ^"
    )
    assert diagnose(in_tmp, c_file, name="s.c", s__c__orcu__yaml="search: [1\n").startswith(
        "s.c.orcu.yaml:2:1: error: bad YAML:"
    )


def test_spec_given_twice(in_tmp):
    assert diagnose(
        in_tmp, perf("  def performance_params { param T[] = [1]; }"), t__c__orcu__yaml="search: {}\n"
    ).startswith("t.c:3:3: error: the spec is given twice: in this PerfTuning region and in t.c.orcu.yaml")


def test_bad_expression_in_c_file(in_tmp):
    assert diagnose(
        in_tmp, perf("  def performance_params {\n    param T[] = [32,\n                 64 +* 2];\n  }")
    ) == ("t.c:6:22: error: bad expression: invalid syntax\n                 64 +* 2];\n                     ^")


def test_a_spec_reads_the_facts_of_the_device_it_is_tuned_for(in_tmp):
    from orcu.device import profile

    write(
        in_tmp / "t.c",
        """/*@ begin PerfTuning (
 def performance_params { param BC[] = [device_sms * k for k in [1, 2]]; param TC[] = [device_max_threads]; }
) @*/
void f(int n, float *y) {
    int i;
    /*@ begin Loop(transform CUDA(threadCount=TC, blockCount=BC)
    for (i = 0; i < n; i++) y[i] = 0;
    ) @*/
    /*@ end @*/
}
/*@ end @*/
""",
    )
    by_name = {p.name: p.values for p in load("t.c").spec.performance_params}
    assert by_name == {"BC": (132, 264), "TC": (1024,)}  # the default profile: H100
    by_name = {p.name: p.values for p in load("t.c", device=profile("A100")).spec.performance_params}
    assert by_name == {"BC": (108, 216), "TC": (1024,)}
    # A spec's own definition wins.
    write(
        in_tmp / "t.c",
        (in_tmp / "t.c")
        .read_text()
        .replace(" def performance_params", " let device_sms = 14;\n def performance_params"),
    )
    assert load("t.c", device=profile("A100")).spec.performance_params[0].values == (14, 28)


def test_the_c_codes_names_may_be_those_of_built_in_functions(in_tmp):
    """PolyBench's doitgen has an array called sum: the spec takes the C code's names, and a call
    of the function of that name still reaches the function."""
    spec = spec_of("""
def performance_params { param min[] = [16, 32, 64]; param TC[] = [32, 64, 128]; constraint fits = min(TC, 64) == TC; }
def input_params { param len[] = [10]; }
def input_vars { decl dynamic double sum[len] = 0; decl dynamic double max[len] = random; }
""")
    assert [p.name for p in spec.performance_params] == ["min", "TC"]
    assert [d.name for d in spec.input_vars] == ["sum", "max"]
    fits = spec.performance_constraints[0].expr
    assert fits.evaluate({"min": 16, "TC": 64}) is True and fits.evaluate({"min": 16, "TC": 128}) is False
