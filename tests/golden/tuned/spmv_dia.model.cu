exit 1
orcu: error: orcu_MatMult_SeqDia_1 {'m': 32, 'n': 32, 'nos': 5, 'dof': 1}: no variant passed (2 invalid); no output written
orcu: error: orcu_MatMult_SeqDia_1 {'m': 64, 'n': 64, 'nos': 5, 'dof': 1}: no variant passed (2 invalid); no output written
orcu: error: orcu_MatMult_SeqDia_1 {'m': 128, 'n': 128, 'nos': 5, 'dof': 1}: no variant passed (2 invalid); no output written
orcu: error: orcu_MatMult_SeqDia_1 {'m': 256, 'n': 256, 'nos': 5, 'dof': 1}: no variant passed (2 invalid); no output written
orcu: error: orcu_MatMult_SeqDia_1 {'m': 512, 'n': 512, 'nos': 5, 'dof': 1}: no variant passed (2 invalid); no output written
