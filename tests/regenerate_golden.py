"""Writes tests/golden/ from the code generator as it is now. The tests only compare with these
files; after an intended change to the generated code, run this and review the diff:

    python3 tests/regenerate_golden.py && git diff tests/golden
"""

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from codegen_cases import CASES  # noqa: E402
from test_codegen import GOLDEN, region_code  # noqa: E402
from test_tuned_examples import BACKENDS, FILES, golden_name, tuned_example  # noqa: E402
from test_tuned_examples import GOLDEN as TUNED  # noqa: E402
from test_writeback import golden_tuned_file  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)  # the cases are loaded by short relative names, as the tests load them
        texts = {f"{name}.cu": region_code(Path(tmp), text).text for name, text in sorted(CASES.items())}
        texts["two_regions_file.cu"] = golden_tuned_file()
        texts.update(
            {
                f"tuned/{golden_name(example, backend)}": tuned_example(Path(tmp), example, backend)
                for example in FILES
                for backend in BACKENDS
            }
        )
    changed = [
        name for name, text in texts.items() if not (GOLDEN / name).exists() or (GOLDEN / name).read_text() != text
    ]
    TUNED.mkdir(exist_ok=True)
    for name in changed:
        (GOLDEN / name).write_text(texts[name])
    print(f"regenerate_golden: {len(texts)} files, {len(changed)} changed: {', '.join(changed) or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
