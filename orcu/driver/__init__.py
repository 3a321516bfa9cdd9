"""The driver: the Python API, the command line, tuning, reports, the results database and
the tuned file."""
