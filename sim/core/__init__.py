"""The lowest layer: random streams, the numba configuration, batch pieces, problems in input
files, data-file readers and the statistics every layer uses."""
