"""Playing a matchup into the store: chunks on loky or Dask workers, and the engine compiled
before its first use."""
