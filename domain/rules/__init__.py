"""The rules as data: units and forces, the Classic board and its names, orders of loss, editions.
"""
