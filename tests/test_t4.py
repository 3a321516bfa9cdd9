"""Results in the T4 format (Open Autotuning Results Schema 1.0.0): what orcu writes validates
against the schemas Kernel Tuner ships; what Kernel Tuner's own writer produces imports, and a
later tune reuses it without letting an imported time win unchecked."""

import json
import sqlite3
from importlib import resources

import pytest
from conftest import scale_kernel, write

import orcu
from orcu.driver.cli import main

pytestmark = pytest.mark.kernel_tuner

EIGHT = scale_kernel([4, 8], "5000")


def validate(document: dict, name: str) -> None:
    """``document`` against Kernel Tuner's T4 schema ``name``. jsonschema is imported here, not at
    the top: the GPU machine's image lacks the test extra, and its run of the gpu-marked tests
    collects this module too."""
    import jsonschema

    schema = json.loads(
        (resources.files("kernel_tuner") / "schema" / "T4" / "1.0.0" / f"{name}-schema.json").read_text()
    )
    jsonschema.validate(document, schema)


def rows(home) -> list[tuple]:
    with sqlite3.connect(home / "results.sqlite") as conn:
        return conn.execute("SELECT params, status, time_ms, origin FROM evaluations ORDER BY params").fetchall()


def test_orcu_t4_files_validate_and_import_into_another_database(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", EIGHT)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "a"))
    assert main(["tune", "t.c", "--backend", "emulate", "--measure", "kernel", "--objective", "max:gb_s"]) == 0
    assert main(["export", "--format", "t4", "-o", "out.json", "t.c"]) == 0
    results, described = (
        json.loads((in_tmp / "out.json").read_text()),
        json.loads((in_tmp / "out.metadata.json").read_text()),
    )
    validate(results, "results")
    validate(described, "metadata")
    assert len(results["results"]) == 8 and {r["invalidity"] for r in results["results"]} == {"correct"}
    assert {tuple(r["objectives"]) for r in results["results"]} == {("gb_s",)}
    first = results["results"][0]
    names = {m["name"]: m for m in first["measurements"]}
    assert names["measure"]["value"] == "kernel" and names["gb_s"]["unit"] == "GB/s"
    assert names["time"]["value"] == pytest.approx(
        sorted(first["times"]["runtimes"])[len(first["times"]["runtimes"]) // 2]
    )
    assert described["metadata"]["orcu"]["region"] == "orcu_scale_1" and described["metadata"]["orcu"]["inputs"] == {
        "n": 5000
    }
    # another machine: the metadata names the file, region, size and backend
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "b"))
    assert main(["import", "--format", "t4", "out.json"]) == 0
    assert "orcu: imported 8 evaluation(s) into" in capsys.readouterr().err
    assert {r[3] for r in rows(in_tmp / "b")} == {"t4:out.json"}
    capsys.readouterr()
    assert main(["tune", "t.c", "--backend", "emulate", "--measure", "kernel", "--json"]) == 0
    evaluated = json.loads(capsys.readouterr().out)["regions"][0]["evaluated"]
    # nothing evaluated again but the contenders for the win, which ran in orcu's harness first
    assert evaluated["cached"] == 8 and 1 <= evaluated["new"] <= 3
    fresh = [r for r in rows(in_tmp / "b") if r[3] == ""]
    assert len(fresh) == evaluated["new"]
    # imported kernel times rank nothing where the model's prediction does: each is evaluated
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "c"))
    assert main(["import", "--format", "t4", "out.json"]) == 0
    capsys.readouterr()
    assert main(["tune", "t.c", "--backend", "emulate", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["regions"][0]["evaluated"] == {"new": 8, "cached": 0, "same_build": 0}
    assert {r[3] for r in rows(in_tmp / "c")} == {""}


def test_a_kernel_tuner_t4_file_imports_and_a_tune_reuses_it_but_runs_its_winner(in_tmp, monkeypatch, capsys):
    """orcu's measurements as a Kernel Tuner cache, replayed by Kernel Tuner's own search in its
    simulation mode and written by its own T4 writer: a file as Kernel Tuner users have them."""
    import kernel_tuner
    from kernel_tuner.file_utils import store_output_file

    write(in_tmp / "t.c", EIGHT)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "a"))
    assert main(["tune", "t.c", "--backend", "emulate", "--measure", "kernel", "-o", "first.cu"]) == 0
    assert main(["report", "t.c", "--kt-cache", "kt.json"]) == 0
    cache = json.loads((in_tmp / "kt.json").read_text())
    found, _ = kernel_tuner.tune_kernel(
        cache["kernel_name"],
        "__global__ void k() {}",
        cache["problem_size"],
        [],
        dict(cache["tune_params"]),
        cache=str(in_tmp / "kt.json"),
        simulation_mode=True,
        strategy="brute_force",
        verbose=False,
        quiet=True,
    )
    store_output_file(str(in_tmp / "kt_t4.json"), found, cache["tune_params"])
    data = json.loads((in_tmp / "kt_t4.json").read_text())
    validate(data, "results")
    # a configuration orcu's space does not have, and a time no run of this variant gave: it would win
    data["results"].append({**data["results"][0], "configuration": {"TC": 48, "BC": 4}})
    cheat = next(r for r in data["results"] if r["configuration"] == {"TC": 256, "BC": 8})
    cheat["times"]["runtimes"] = [1e-9]
    (in_tmp / "kt_t4.json").write_text(json.dumps(data))

    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "b"))
    capsys.readouterr()
    assert main(["import", "--format", "t4", "kt_t4.json", "--file", "t.c", "--backend", "emulate"]) == 0
    assert "left out 1 (outside the region's space, or measured already)" in capsys.readouterr().err
    imported = {(json.loads(p)["TC"], json.loads(p)["BC"]): t for p, _, t, _ in rows(in_tmp / "b")}
    assert imported[256, 8] == 1e-9 and len(imported) == 8
    tuning = orcu.tune("t.c", backend="emulate", measure="kernel", progress=False)
    region = tuning.regions[0]
    assert region.cached == 8 and region.new >= 1
    assert region.best.time_ms > 1e-6  # the imported time was run again and replaced
    again = {(json.loads(p)["TC"], json.loads(p)["BC"]): (t, o) for p, _, t, o in rows(in_tmp / "b")}
    assert again[256, 8][1] == "" and again[256, 8][0] > 1e-6
    assert again[region.best.params["TC"], region.best.params["BC"]][1] == ""  # the winner is orcu's own run


def test_import_says_what_it_needs(in_tmp, monkeypatch, capsys):
    write(in_tmp / "t.c", EIGHT)
    monkeypatch.setenv("ORCU_HOME", str(in_tmp / "a"))
    write(
        in_tmp / "r.json",
        json.dumps(
            {
                "schema_version": "1.0.0",
                "results": [
                    {
                        "configuration": {"TC": 32},
                        "times": {"runtimes": [1.0]},
                        "invalidity": "correct",
                        "correctness": 1,
                    }
                ],
            }
        ),
    )
    assert main(["import", "--format", "t4", "r.json"]) == 2
    assert (
        "r.json: name the annotated file the results belong to (orcu import --format t4 r.json --file FILE)"
        in capsys.readouterr().err
    )
    assert main(["import", "--format", "t4", "r.json", "--file", "t.c", "--backend", "emulate"]) == 2
    assert (
        "r.json: a configuration has no value of BC, parameters of orcu_scale_1 (it has TC)" in capsys.readouterr().err
    )
    write(in_tmp / "bad.json", json.dumps({"results": [{"configuration": {}, "invalidity": "broken"}]}))
    assert main(["import", "--format", "t4", "bad.json", "--file", "t.c"]) == 2
    assert "bad.json: result 0 has no configuration or an unknown invalidity 'broken'" in capsys.readouterr().err
