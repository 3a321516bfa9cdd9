"""What a loop nest reads, writes and reduces, whether its outer loop may run in
parallel, and how large each array it touches is."""
