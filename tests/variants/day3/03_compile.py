"""Honest variants for day3/03_compile."""

from tools.variants import Kind, Variant

VARIANTS = [
]
