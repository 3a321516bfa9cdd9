"""The Jinja2 environment over orcu's templates (shipped as the ``orcu.templates`` package)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import jinja2


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(resources.files("orcu.templates"))),
        undefined=jinja2.StrictUndefined,  # a missing value is a bug, not an empty string
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )


def render(template: str, **values) -> str:
    return environment().get_template(template).render(**values)
