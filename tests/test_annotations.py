from conftest import diagnose

from orcu.frontend.annotations import scan_regions
from orcu.frontend.ctext import blank_comments
from orcu.frontend.source import SourceFile


def regions(text):
    src = SourceFile("t.c", text)
    return src, scan_regions(src)


def test_regions_nest_with_exact_offsets():
    text = (
        "int f() {\n"
        "  /*@ begin PerfTuning ( def performance_params { param T[] = [1]; } ) @*/\n"
        "  /*@ Loop(transform CUDA(threadCount=T)\n"
        "  x = 1;\n"
        "  ) @*/\n"
        "  x = 1;\n"
        "  /*@ @*/\n"
        "  /*@ end @*/\n"
        "}\n"
    )
    src, top = regions(text)
    assert [r.name for r in top] == ["PerfTuning"]
    (loop,) = top[0].children
    assert loop.name == "Loop"
    assert src.location(top[0].start) == src.location(text.index("/*@ begin"))
    assert (src.location(top[0].start).line, src.location(top[0].start).col) == (2, 3)
    assert (src.location(loop.name_offset).line, src.location(loop.name_offset).col) == (3, 7)
    assert loop.args(src).startswith("transform CUDA(threadCount=T)\n  x = 1;")
    assert loop.code(src) == "\n  x = 1;\n  "
    assert top[0].args(src) == " def performance_params { param T[] = [1]; } "
    assert text[loop.end :].startswith("\n  /*@ end @*/")


def test_markers_inside_strings_and_comments_are_ignored():
    text = 'char *s = "/*@ begin Loop( @*/"; // /*@ end @*/\n/* /*@ */ int x;\n'
    assert regions(text)[1] == ()


def test_blank_comments_keeps_offsets_and_newlines():
    text = 'a /* b\nc */ d // e\nf "/* no */"'
    blanked = blank_comments(text)
    assert len(blanked) == len(text)
    assert blanked == 'a     \n     d     \nf "/* no */"'


def test_unterminated_region(in_tmp):
    assert diagnose(in_tmp, "void f() {\n  /*@ begin Loop(transform CUDA()\n  x = 1;\n  ) @*/\n}\n") == (
        "t.c:2:3: error: unterminated region 'Loop': no '/*@ end @*/' closes it\n  /*@ begin Loop(transform CUDA()\n  ^"
    )


def test_unbalanced_parentheses(in_tmp):
    assert diagnose(in_tmp, "/*@ begin Loop(transform CUDA(threadCount=(4)\n x=1; @*/\n/*@ end @*/\n") == (
        "t.c:1:30: error: unbalanced parentheses: this '(' is never closed\n"
        "/*@ begin Loop(transform CUDA(threadCount=(4)\n"
        "                             ^"
    )


def test_extra_closing_parenthesis(in_tmp):
    assert diagnose(in_tmp, "/*@ begin Loop(transform CUDA() x=1;)) @*/\n/*@ end @*/\n") == (
        "t.c:1:38: error: unbalanced parentheses: this ')' has no '('\n"
        "/*@ begin Loop(transform CUDA() x=1;)) @*/\n"
        "                                     ^"
    )


def test_unknown_region_name_suggests(in_tmp):
    assert diagnose(in_tmp, "/*@ begin Lop(x) @*/\n/*@ end @*/\n") == (
        "t.c:1:11: error: unknown region 'Lop' (did you mean 'Loop'?)\n/*@ begin Lop(x) @*/\n          ^"
    )


def test_stray_end(in_tmp):
    assert diagnose(in_tmp, "int x;\n  /*@ end @*/\n") == (
        "t.c:2:3: error: 'end' annotation without an open region\n  /*@ end @*/\n  ^"
    )


def test_c_comment_end_inside_annotation(in_tmp):
    assert diagnose(in_tmp, "/*@ begin Loop(transform CUDA() x = 1; /* c */ ) @*/\n/*@ end @*/\n") == (
        "t.c:1:45: error: '*/' inside an annotation ends the C comment before its '@*/'\n"
        "/*@ begin Loop(transform CUDA() x = 1; /* c */ ) @*/\n"
        "                                            ^"
    )


def test_file_without_regions(in_tmp):
    assert diagnose(in_tmp, "int main() { return 0; }\n") == (
        "t.c:1:1: error: no Loop regions found (expected /*@ begin Loop(transform CUDA(...) ...) @*/)\n"
        "int main() { return 0; }\n"
        "^"
    )


def test_nested_loop_regions_rejected(in_tmp):
    text = "/*@ begin Loop(transform CUDA() x=1;) @*/\n/*@ begin Loop(transform CUDA() x=1;) @*/\n/*@ end @*/\n/*@ end @*/\n"
    assert diagnose(in_tmp, text).startswith("t.c:2:1: error: Loop regions cannot be nested\n")
