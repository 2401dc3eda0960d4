"""Operators written in tileopt.tile, with their float64 NumPy references.

    from tileopt.ops import mamba_chunk_scan_combined   # CUDA tensors
    from tileopt.ops import ssd_reference              # NumPy, float64
"""

from . import ssd_reference
from .ssd import mamba_chunk_scan_combined

__all__ = ["mamba_chunk_scan_combined", "ssd_reference"]
