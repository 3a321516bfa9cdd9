"""Execution: building and running variants (harness, toolchain, executors, runners) and the
performance model."""
