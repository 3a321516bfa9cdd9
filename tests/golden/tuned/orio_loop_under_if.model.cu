exit 1
orcu: error: orcu_blockdia_1 {'nrows': 600, 'ndofs': 3, 'ndiags': 3}: no variant passed (2 invalid); no output written
