"""Small annotated functions, one per transformation, shared by the golden and nvcc tests."""

AXPY = """void f(int n, {t} a, const {t} *x, {t} *y) {{
    int i;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
    ) @*/
    /*@ end @*/
}}
"""

MULTI = """void f(int n, int nv, const double *a, const double *X, double *y) {{
    int i, k;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i <= n-1; i++)
        for (k = 0; k <= nv-1; k++)
            y[i] += a[k] * X[i + k*n];
    ) @*/
    /*@ end @*/
}}
"""

STENCIL = """void f(int n, const double *a, double *b) {{
    int i;
    /*@ begin Loop(transform CUDA({args})
    for (i = 1; i < n - 1; i += 2)
        b[i] = 0.5 * (a[i-1] + a[i+1]);
    ) @*/
    /*@ end @*/
}}
"""

STREAMED = """void f(int n, const double *c, const double *x, double *y) {{
    int i;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i < n; i++)
        y[i] += c[0] * x[i];
    ) @*/
    /*@ end @*/
}}
"""

REDUCTION = """{t} f(int n, const {t} *x, {t} r) {{
    int i;
    /*@ begin Loop(transform CUDA({args})
    for (i = 0; i < n; i++)
        {stmt};
    ) @*/
    /*@ end @*/
    return r;
}}
"""

SUM_AND_MAX = """void f(int n, const float *x, float *s, float *m) {
    float total = *s, top = *m;
    int i;
    /*@ begin Loop(transform CUDA(threadCount=96, blockCount=3, streamCount=2)
    for (i = 0; i < n; i++) {
        total += x[i];
        top = fmaxf(top, x[i]);
    }
    ) @*/
    /*@ end @*/
    *s = total;
    *m = top;
}
"""

# name -> annotated source; each shows one transformation (see tests/golden/NAME.cu).
CASES = {
    "grid_stride": AXPY.format(t="float", args="threadCount=128, blockCount=4"),
    "default_blocks": AXPY.format(t="float", args="threadCount=256"),
    "step_and_offset": STENCIL.format(args="threadCount=64, blockCount=2"),
    "unroll_inner": MULTI.format(args="threadCount=128, blockCount=8, unrollInner=4"),
    "cache_blocks": MULTI.format(args="threadCount=128, blockCount=8, cacheBlocks=True"),
    "prefer_l1": AXPY.format(t="double", args="threadCount=128, blockCount=4, preferL1Size=16"),
    "streams": STREAMED.format(args="threadCount=128, blockCount=4, streamCount=4"),
    "pin_host_mem": AXPY.format(t="double", args="threadCount=128, blockCount=4, pinHostMem=True"),
    "data_on_device": AXPY.format(t="double", args="threadCount=128, blockCount=4, dataOnDevice=True"),
    "sum_float": REDUCTION.format(t="float", args="threadCount=100, blockCount=5", stmt="r += x[i] * x[i]"),
    "product_int": REDUCTION.format(t="int", args="threadCount=64, blockCount=2", stmt="r = r * x[i]"),
    "min_double_if": REDUCTION.format(t="double", args="threadCount=32, blockCount=7", stmt="if (x[i] < r) r = x[i]"),
    "max_long_ternary": REDUCTION.format(t="long", args="threadCount=48, blockCount=3", stmt="r = x[i] > r ? x[i] : r"),
    "sum_and_max_streams": SUM_AND_MAX,
    "vector_axpy": AXPY.format(t="float", args="threadCount=64, blockCount=3, vectorize=True").replace(
        "i = 0;", "i = 1;"
    ),
    "vector_sum": REDUCTION.format(
        t="double", args="threadCount=96, blockCount=2, vectorize=True", stmt="r += x[i] * x[i]"
    ),
}
