"""Planning: the tuning problem of a file (front end, spec and the scop schedule), its
parameter spaces."""
