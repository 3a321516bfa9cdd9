exit 2
ex/orio/no_spec.c:6:5: error: 'n' sets a loop bound or an array's size, and the file has no tuning spec: give its value with --input n=VALUE
