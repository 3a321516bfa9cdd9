"""Jinja2 templates of the generated CUDA (package data; see orcu/codegen/templates.py)."""
