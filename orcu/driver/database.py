"""The results database: every evaluation orcu has made, in SQLite under ``$ORCU_HOME``.

Each row is keyed by a hash of what determines the measurement (the region's code, the
spec, parameters, input sizes, backend, device, compiler, flags and orcu's own code and
templates, so that a changed orcu never reuses another's verdict), so a
repeated or resumed tune re-evaluates nothing it already has. Rows are committed one by
one in WAL mode, so a killed tune loses only what was in flight and several tunes may
share the database.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import random
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing
from dataclasses import dataclass
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from orcu.errors import UsageError
from orcu.execution.backends import BACKENDS
from orcu.execution.model import predicted_ms
from orcu.execution.result import MEASURES, WRONG, Result
from orcu.version import __version__

BUSY_TIMEOUT_S = 60  # how long a writer waits for another process to finish its transaction
SCHEMA_VERSION = 4  # PRAGMA user_version; raise it with every change of the tables below (and say how in MIGRATIONS)
SCHEMA = """
CREATE TABLE IF NOT EXISTS evaluations (
    key TEXT PRIMARY KEY,
    file TEXT NOT NULL,
    region TEXT NOT NULL,
    line INTEGER NOT NULL,
    context TEXT NOT NULL,          -- hash of the region, spec, backend, device, compiler, orcu
    params TEXT NOT NULL,           -- JSON
    inputs TEXT NOT NULL,           -- JSON
    backend TEXT NOT NULL,
    device TEXT NOT NULL,
    compiler TEXT NOT NULL,
    status TEXT NOT NULL,
    time_ms REAL,
    kernel_ms TEXT NOT NULL,        -- JSON list of samples
    total_ms TEXT NOT NULL,         -- JSON list of samples
    message TEXT NOT NULL,
    compile_s REAL NOT NULL,
    run_s REAL NOT NULL,
    created TEXT NOT NULL,
    figures TEXT NOT NULL DEFAULT 'null',  -- JSON: static traffic (tsg/traffic.py) and "model": the prediction, else null
    code TEXT NOT NULL DEFAULT '',  -- hash of the region, spec and orcu: one variant's code whatever the backend
    metrics TEXT NOT NULL DEFAULT 'null',   -- JSON: what it achieved (orcu/execution/metrics.py), where ranked
    measured TEXT NOT NULL DEFAULT 'null',  -- JSON: what the harness measured besides time (NVML energy)
    origin TEXT NOT NULL DEFAULT ''         -- '' measured by orcu here, else the import it came from
);
CREATE INDEX IF NOT EXISTS evaluations_by_file ON evaluations (file, region, created);
CREATE TABLE IF NOT EXISTS choices (
    context TEXT NOT NULL,          -- as in evaluations
    region TEXT NOT NULL,
    inputs TEXT NOT NULL,           -- JSON, keys sorted
    params TEXT NOT NULL,           -- JSON: the configuration tune wrote
    time_ms REAL NOT NULL,
    created TEXT NOT NULL,
    checked INTEGER NOT NULL DEFAULT 1,  -- 0: a prediction that no run checked against the original code
    objective TEXT NOT NULL DEFAULT '',  -- what chose it where not the time: "max:gflop_s = 812.3"
    PRIMARY KEY (context, region, inputs)
);
CREATE TABLE IF NOT EXISTS retimings (
    key TEXT PRIMARY KEY,           -- the set of candidates re-timed together
    samples TEXT NOT NULL,          -- JSON: candidate key -> total_ms samples
    created TEXT NOT NULL
);
"""


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:32]


@lru_cache(maxsize=1)
def _orcu_digest() -> str:
    """A digest of the orcu that measures: its version, modules and templates (a development
    checkout keeps one version number across many changes)."""
    digest = hashlib.sha256(__version__.encode())
    for package in ("orcu", "orcu.templates"):
        root = resources.files(package)
        for path in sorted(Path(str(root)).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".j2", ".h", ".json"):
                digest.update(str(path.relative_to(Path(str(root)))).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


@dataclass
class Context:
    """What, besides parameters and input sizes, determines a measurement."""

    file: str
    region: str
    line: int
    source: str  # the region's and the spec's text
    backend: str
    device: str
    compiler: str

    @cached_property
    def digest(self) -> str:
        return _hash(self.source, self.backend, self.device, self.compiler, _orcu_digest())

    @cached_property
    def code(self) -> str:
        """The code the variants are generated from, the same whatever the backend measuring them."""
        return _hash(self.source, _orcu_digest())

    def key(self, params: Mapping[str, Any], inputs: Mapping[str, Any], flags: tuple[str, ...] = ()) -> str:
        # The region too: two regions of a file may be tuned with the same configuration.
        return _hash(self.digest, self.region, dict(params), dict(inputs), list(flags))


def database_path(near: str | os.PathLike[str] | None = None) -> Path:
    """The results database of the annotated file ``near`` (default: of the current directory)."""
    from orcu.device import orcu_home

    return orcu_home(near) / "results.sqlite"


def existing_database(near: str | os.PathLike[str] | None = None) -> Database:
    """The results database, for commands that read it (an error if no tune has written one).
    ``near``: the annotated file whose results are asked for (an error if there is none, as
    tune and check say it)."""
    if near is not None and not Path(near).exists():
        raise UsageError(f"no such file: {near}")
    path = database_path(near)
    if not path.exists():
        raise UsageError(f"no results database at {path}: run orcu tune first (or set ORCU_HOME)")
    return Database(path)


class Database:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False)
        self._enter_wal_mode()
        # WAL with synchronous=NORMAL: a commit survives the process being killed (not a power cut).
        self.conn.execute("PRAGMA synchronous=NORMAL")
        with self.transaction():
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise UsageError(
                    f"{self.path} was written by a newer orcu (schema {version}, this one reads {SCHEMA_VERSION})"
                )
            if version and self.conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'evaluations'").fetchone():
                for old in range(version, SCHEMA_VERSION):
                    step = MIGRATIONS[old]
                    step(self.conn) if callable(step) else self.conn.execute(step)
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def _enter_wal_mode(self) -> None:
        # Switching a new file to WAL needs an exclusive lock, and SQLite answers a second
        # process doing the same at that moment with SQLITE_BUSY at once, without waiting
        # on the busy timeout (to avoid a deadlock). So wait here; the mode is persistent,
        # so only the tunes that create the database together ever come here twice.
        deadline = time.monotonic() + BUSY_TIMEOUT_S
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.01 + 0.05 * random.random())

    def transaction(self):
        return _Transaction(self.conn)

    def close(self) -> None:
        self.conn.close()

    def get(self, key: str, measure: str = "kernel") -> Result | None:
        with closing(
            self.conn.execute(
                "SELECT status, params, inputs, kernel_ms, total_ms, message, compile_s, run_s, figures, measured, origin "
                "FROM evaluations WHERE key = ?",
                (key,),
            )
        ) as cur:
            row = cur.fetchone()
        if row is None:
            return None
        status, params, inputs, kernel, total, message, compile_s, run_s, figures, measured, origin = row
        return Result(
            status,
            json.loads(params),
            json.loads(inputs),
            json.loads(kernel),
            json.loads(total),
            message,
            None,
            compile_s,
            run_s,
            measure,
            json.loads(figures),
            measured=json.loads(measured),
            origin=origin,
        )

    def put(self, key: str, context: Context, result: Result) -> None:
        with self.transaction():
            _insert(
                self.conn,
                "INSERT OR REPLACE",
                {
                    "key": key,
                    "file": context.file,
                    "region": context.region,
                    "line": context.line,
                    "context": context.digest,
                    "params": json.dumps(result.params, default=str),
                    "inputs": json.dumps(result.inputs, default=str),
                    "backend": context.backend,
                    "device": context.device,
                    "compiler": context.compiler,
                    "status": result.status,
                    "time_ms": result.time_ms,
                    "kernel_ms": json.dumps(result.kernel_ms),
                    "total_ms": json.dumps(result.total_ms),
                    "message": result.message,
                    "compile_s": result.compile_s,
                    "run_s": result.run_s,
                    "created": datetime.datetime.now().isoformat(timespec="seconds"),
                    "figures": json.dumps(result.figures),
                    "code": context.code,
                    "metrics": json.dumps(result.metrics),
                    "measured": json.dumps(result.measured),
                    "origin": result.origin,
                },
            )

    def found_wrong(
        self, context: Context, params: Mapping[str, Any], inputs: Mapping[str, Any]
    ) -> tuple[str, str, str] | None:
        """What a run (any backend) found wrong with this variant of this code, the latest: its
        (status, backend, message); None if no run did."""
        with closing(
            self.conn.execute(
                f"SELECT status, backend, message FROM evaluations WHERE code = ? AND region = ? AND params = ? AND inputs = ? "
                f"AND status IN ({', '.join('?' * len(WRONG))}) ORDER BY created DESC, rowid DESC LIMIT 1",
                (
                    context.code,
                    context.region,
                    json.dumps(dict(params), default=str),
                    json.dumps(dict(inputs), default=str),
                    *WRONG,
                ),
            )
        ) as cur:
            row = cur.fetchone()
        return tuple(row) if row else None

    def get_retiming(self, key: str) -> dict[str, list[float]] | None:
        with closing(self.conn.execute("SELECT samples FROM retimings WHERE key = ?", (key,))) as cur:
            row = cur.fetchone()
        return json.loads(row[0]) if row else None

    def put_retiming(self, key: str, samples: dict[str, list[float]]) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO retimings VALUES (?, ?, ?)",
                (key, json.dumps(samples), datetime.datetime.now().isoformat(timespec="seconds")),
            )

    def put_choice(
        self,
        context: Context,
        inputs: Mapping[str, Any],
        params: Mapping[str, Any],
        time_ms: float,
        measure: str,
        checked: bool = True,
        objective: str = "",
    ) -> None:
        with self.transaction():
            self.conn.execute(
                "INSERT OR REPLACE INTO choices VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    _choice_context(context, measure),
                    context.region,
                    json.dumps(dict(inputs), sort_keys=True, default=str),
                    json.dumps(dict(params), default=str),
                    time_ms,
                    datetime.datetime.now().isoformat(timespec="seconds"),
                    int(checked),
                    objective,
                ),
            )

    def drop_choice(self, context: Context, inputs: Mapping[str, Any], measure: str) -> None:
        with self.transaction():
            self.conn.execute(
                "DELETE FROM choices WHERE context = ? AND region = ? AND inputs = ?",
                (
                    _choice_context(context, measure),
                    context.region,
                    json.dumps(dict(inputs), sort_keys=True, default=str),
                ),
            )

    def get_choice(
        self, context: Context, inputs: Mapping[str, Any], measure: str
    ) -> tuple[dict[str, Any], float, bool, str] | None:
        """The configuration the last tune of this region and input size chose by ``measure``, its
        time, whether it was checked against the original code, and the objective that chose it
        ("" where the time did)."""
        with closing(
            self.conn.execute(
                "SELECT params, time_ms, checked, objective FROM choices WHERE context = ? AND region = ? AND inputs = ?",
                (
                    _choice_context(context, measure),
                    context.region,
                    json.dumps(dict(inputs), sort_keys=True, default=str),
                ),
            )
        ) as cur:
            row = cur.fetchone()
        return (json.loads(row[0]), row[1], bool(row[2]), row[3]) if row else None

    def choice_objective(self, digest: str, region: str, inputs: Mapping[str, Any], measure: str) -> str:
        """The objective of the choice recorded for this context, region, size and measure ("" for
        the time, or none)."""
        with closing(
            self.conn.execute(
                "SELECT objective FROM choices WHERE context = ? AND region = ? AND inputs = ?",
                (_choice_key(digest, measure), region, json.dumps(dict(inputs), sort_keys=True, default=str)),
            )
        ) as cur:
            row = cur.fetchone()
        return row[0] if row else ""

    def chosen(self, digest: str, region: str, inputs: Mapping[str, Any]) -> tuple[str, dict[str, Any], int] | None:
        """The last choice a tune recorded for this context (``digest``), region and input size,
        whatever measure ranked it: (that measure, the configuration written, its row: the
        later written, the larger; two tunes a second apart have the same ``created``)."""
        found = []
        for measure in MEASURES:
            with closing(
                self.conn.execute(
                    "SELECT params, rowid FROM choices WHERE context = ? AND region = ? AND inputs = ?",
                    (_choice_key(digest, measure), region, json.dumps(dict(inputs), sort_keys=True, default=str)),
                )
            ) as cur:
                row = cur.fetchone()
            if row:
                found.append((row[1], measure, json.loads(row[0])))
        if not found:
            return None
        row, measure, params = max(found, key=lambda c: c[0])
        return measure, params, row

    def measured_on(self, region: str) -> list[tuple[str, str, str]]:
        """The (backend, device, compiler) combinations a region of this name was measured with."""
        with closing(
            self.conn.execute("SELECT DISTINCT backend, device, compiler FROM evaluations WHERE region = ?", (region,))
        ) as cur:
            return [tuple(row) for row in cur]

    def rows(self, file: str | None = None) -> Iterator[dict[str, Any]]:
        query = "SELECT * FROM evaluations" + (" WHERE file = ?" if file else "") + " ORDER BY created, rowid"
        with closing(self.conn.execute(query, (file,) if file else ())) as cur:
            names = [d[0] for d in cur.description]
            for row in cur:
                item = dict(zip(names, row))
                for k in ("params", "inputs", "kernel_ms", "total_ms", "figures", "metrics", "measured"):
                    item[k] = json.loads(item[k])
                predicted = predicted_ms(item["figures"])
                item["model_ms"] = [] if predicted is None else [predicted]  # the model's prediction, as samples
                yield item


def _choice_context(context: Context, measure: str) -> str:
    return _choice_key(context.digest, measure)


def _choice_key(digest: str, measure: str) -> str:
    """Choices differ by what ranked them; total time keeps the key earlier versions gave."""
    return digest if measure == "total" else _hash(digest, measure)


def _to_schema_3(conn: sqlite3.Connection) -> None:
    """Evaluations get the code they measured (so a prediction can meet what a run found of the
    same variant); choices whether they were checked: those of earlier --backend model tunes were not."""
    conn.execute("ALTER TABLE evaluations ADD COLUMN code TEXT NOT NULL DEFAULT ''")
    if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'choices'").fetchone():
        return  # the first schema had none: it is created whole
    conn.execute("ALTER TABLE choices ADD COLUMN checked INTEGER NOT NULL DEFAULT 1")
    unrun = [b.name for b in BACKENDS.values() if not b.runs]  # their choices were predictions
    predicted = [
        row[0]
        for row in conn.execute(
            f"SELECT DISTINCT context FROM evaluations WHERE backend IN ({', '.join('?' * len(unrun))})", unrun
        )
    ]
    for key in {_choice_key(digest, measure) for digest in predicted for measure in MEASURES}:
        conn.execute("UPDATE choices SET checked = 0 WHERE context = ?", (key,))


def _to_schema_4(conn: sqlite3.Connection) -> None:
    """Evaluations get their metrics, what was measured besides time and where they came from;
    choices the objective that made them."""
    for column in (
        "metrics TEXT NOT NULL DEFAULT 'null'",
        "measured TEXT NOT NULL DEFAULT 'null'",
        "origin TEXT NOT NULL DEFAULT ''",
    ):
        conn.execute(f"ALTER TABLE evaluations ADD COLUMN {column}")
    if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'choices'").fetchone():
        conn.execute("ALTER TABLE choices ADD COLUMN objective TEXT NOT NULL DEFAULT ''")


def _insert(conn: sqlite3.Connection, verb: str, row: Mapping[str, Any]) -> None:
    """One row of evaluations, its columns named (so that a column added later cannot shift them)."""
    conn.execute(
        f"{verb} INTO evaluations ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
    )


# What brings a database of each older schema to the next one.
MIGRATIONS: dict[int, str | Callable[[sqlite3.Connection], None]] = {
    1: "ALTER TABLE evaluations ADD COLUMN figures TEXT NOT NULL DEFAULT 'null'",
    2: _to_schema_3,
    3: _to_schema_4,
}


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT: one writer at a time across processes, waiting its turn."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, kind, value, tb):
        self.conn.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


# -- results that travel: orcu export / orcu import ---------------------------------------------
EXPORT_FORMAT = "orcu results"


def export_results(db: Database, files: list[str] | None, every: bool = False) -> dict[str, Any]:
    """The choices tune made for ``files`` (absolute paths; None: every file), with the
    evaluations they came from (``every``: all evaluations of those files), and what each
    file's text was, so that an import can tell a changed region."""
    rows = [r for r in db.rows() if files is None or r["file"] in files]
    contexts = {r["context"] for r in rows}
    names = {_choice_key(c, m): c for c in contexts for m in MEASURES}  # a choice's context -> its evaluations'
    columns = ("context", "region", "inputs", "params", "time_ms", "created", "checked", "objective")
    with closing(db.conn.execute(f"SELECT {', '.join(columns)} FROM choices")) as cur:
        choices = [dict(zip(columns, row)) for row in cur if row[0] in names]

    def same(value) -> str:
        return json.dumps(value, sort_keys=True, default=str)

    chosen = {
        (names[c["context"]], c["region"], same(json.loads(c["params"])), same(json.loads(c["inputs"])))
        for c in choices
    }
    kept = [r for r in rows if every or (r["context"], r["region"], same(r["params"]), same(r["inputs"])) in chosen]
    regions, digests = {}, {}
    for r in rows:
        if (r["file"], r["region"]) not in regions:  # each file read once, not once per evaluation
            if r["file"] not in digests:
                digests[r["file"]] = _file_digest(r["file"])
            regions[r["file"], r["region"]] = {
                "file": r["file"],
                "region": r["region"],
                "line": r["line"],
                "text_sha256": digests[r["file"]],
            }
    return {
        "format": EXPORT_FORMAT,
        "schema": SCHEMA_VERSION,
        "orcu": _orcu_digest(),
        "version": __version__,
        "regions": sorted(regions.values(), key=lambda e: (e["file"], e["line"])),
        "choices": choices,
        "evaluations": kept,
    }


def import_results(db: Database, data: Mapping[str, Any]) -> tuple[int, int]:
    """Puts exported results into ``db``: (choices, evaluations) added. Refused whole when they
    come from another orcu or schema, or when a region's file here differs from the file they
    were measured on."""
    if not isinstance(data, Mapping) or data.get("format") != EXPORT_FORMAT:
        raise UsageError("not an orcu results export (write one with orcu export)")
    if data.get("schema") != SCHEMA_VERSION:
        raise UsageError(
            f"the results were exported with results schema {data.get('schema')}; this orcu reads schema "
            f"{SCHEMA_VERSION}: export them again with this orcu"
        )
    if data.get("orcu") != _orcu_digest():
        raise UsageError(
            f"the results were measured by another orcu (version {data.get('version')}, or changed code): "
            "orcu keys results by its own code, so they would never be used; import with the orcu that exported them"
        )
    for region in data["regions"]:
        here = _file_digest(region["file"])
        if here is not None and here != region["text_sha256"]:
            raise UsageError(
                f"{region['file']}:{region['line']}: {region['region']} changed since its results were "
                "exported: tune it again"
            )
    with db.transaction():
        for c in data["choices"]:
            db.conn.execute(
                "INSERT OR REPLACE INTO choices VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    c["context"],
                    c["region"],
                    c["inputs"],
                    c["params"],
                    c["time_ms"],
                    c["created"],
                    c["checked"],
                    c["objective"],
                ),
            )
        columns = [c[1] for c in db.conn.execute("PRAGMA table_info(evaluations)")]
        for r in data["evaluations"]:
            row = {k: r[k] for k in columns}
            for k in ("params", "inputs", "kernel_ms", "total_ms", "figures", "metrics", "measured"):
                row[k] = json.dumps(r[k], default=str)
            _insert(db.conn, "INSERT OR IGNORE", row)
    return len(data["choices"]), len(data["evaluations"])


def _file_digest(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None
