"""IAAPA notation read and written: dice-server battle logs, declarations, special orders.
"""
