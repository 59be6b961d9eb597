"""Exact battle odds (grid and general solvers over hit distributions) and the Monte Carlo cross-check.
"""
