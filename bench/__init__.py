"""Benchmark scripts (``make bench``: ``bench/run.py``); a package so they share ``bench.common``."""
