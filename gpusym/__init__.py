"""gpusym: GPU programs debuggable with ordinary tools."""

__version__ = "0.1.0"
