"""cardlab simulation: card data to integer tables to batch kernels to records."""

__version__ = "0.1.0"
