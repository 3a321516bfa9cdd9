"""What pyproject.toml cannot say alone: every package under orcu/ is found by itself, and the
top-level templates/ ships as the package orcu.templates with every file in it and in its
subfolders as package data (templates, the emulation header, any data file added later)."""
from setuptools import find_namespace_packages, find_packages, setup

templates = ["orcu.templates"] + [
    f"orcu.templates.{name}" for name in find_namespace_packages("templates", exclude=["__pycache__", "*.__pycache__"])
]
setup(
    packages=[*find_packages(include=["orcu", "orcu.*"]), *templates],
    package_dir={"orcu.templates": "templates"},
    package_data={name: ["*"] for name in templates},
    exclude_package_data={name: ["*.pyc"] for name in templates},
)
